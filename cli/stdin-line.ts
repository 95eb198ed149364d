/** The first line of piped standard input: how a secret reaches a command without shell history or `ps`. */
export async function firstLineOfStdin(): Promise<string> {
  let text = '';
  for await (const chunk of process.stdin) text += typeof chunk === 'string' ? chunk : (chunk as Buffer).toString('utf8');
  return text.split(/\r?\n/, 1)[0] ?? '';
}

/** The first line of piped standard input: how a secret reaches a command without shell history or `ps`. */
export async function firstLineOfStdin(): Promise<string> {
  let text = '';
  for await (const chunk of process.stdin) text += typeof chunk === 'string' ? chunk : (chunk as Buffer).toString('utf8');
  return text.split(/\r?\n/, 1)[0] ?? '';
}

/** A secret's line from standard input: typed without echo at a terminal, else the first line piped in. */
export async function secretLineFromStdin(prompt: string): Promise<string> {
  return process.stdin.isTTY ? promptWithoutEcho(prompt) : firstLineOfStdin();
}

/** One line typed at the terminal, not shown; Ctrl-C stops the command as it would anywhere else. */
async function promptWithoutEcho(prompt: string): Promise<string> {
  const input = process.stdin;
  process.stderr.write(prompt);
  input.setRawMode(true);
  input.setEncoding('utf8');
  input.resume();
  try {
    return await new Promise<string>((resolve) => {
      let typed = '';
      const onData = (keys: string): void => {
        for (const key of keys) {
          // Enter ends the line; so does Ctrl-D, as at the end of piped input.
          if (key === '\r' || key === '\n' || key === '\u0004') {
            input.off('data', onData);
            resolve(typed);
            return;
          }
          if (key === '\u0003') {
            input.setRawMode(false);
            process.stderr.write('\n');
            process.exit(130);
          }
          typed = key === '\u007f' || key === '\b' ? typed.slice(0, -1) : typed + key;
        }
      };
      input.on('data', onData);
    });
  } finally {
    input.setRawMode(false);
    input.pause();
    process.stderr.write('\n');
  }
}

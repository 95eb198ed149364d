import { required, type ParsedArgs } from './args.js';
import { firstLineOfStdin } from './stdin-line.js';
import { UsageError } from './usage-error.js';

/** The options of a command that takes a password: --password-stdin and CRM_PASSWORD keep it out of shell history and `ps`. */
export const PASSWORD_OPTIONS = { password: { type: 'string' }, 'password-stdin': { type: 'boolean' } } as const;

/** How the usage text says where the password may come from. */
export const PASSWORD_SOURCES = `The password may instead be read from standard input with --password-stdin (the
first line; typed without echo on a terminal), or come from the CRM_PASSWORD environment
variable: unlike --password, neither lands in shell history or the process list.`;

/** --password-stdin, else --password, else CRM_PASSWORD. */
export async function passwordFrom(args: ParsedArgs, usage: string): Promise<string> {
  if (args.values['password-stdin'] === true) {
    if (args.values.password !== undefined) throw new UsageError('Give --password or --password-stdin, not both.', usage);
    const password = process.stdin.isTTY ? await promptWithoutEcho('Password: ') : await firstLineOfStdin();
    if (password === '') throw new UsageError('--password-stdin read no password from standard input.', usage);
    return password;
  }
  const fromEnv = process.env.CRM_PASSWORD;
  if (args.values.password === undefined && fromEnv) return fromEnv;
  return required(args, 'password', usage);
}

/** Where passwordFrom took the password: what a refusal of it names, as a refused option is named. */
export function passwordSourceOf(args: ParsedArgs): string {
  if (args.values['password-stdin'] === true) return 'the password read from standard input';
  return args.values.password === undefined && process.env.CRM_PASSWORD ? 'CRM_PASSWORD' : '--password';
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

import { required, type ParsedArgs } from './args.js';
import { secretLineFromStdin } from './stdin-line.js';
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
    const password = await secretLineFromStdin('Password: ');
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

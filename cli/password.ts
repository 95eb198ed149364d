import { required, type ParsedArgs } from './args.js';

/** --password, or CRM_PASSWORD so that it stays out of shell history and `ps`. */
export function passwordFrom(args: ParsedArgs, usage: string): string {
  const fromEnv = process.env.CRM_PASSWORD;
  if (args.values.password === undefined && fromEnv) return fromEnv;
  return required(args, 'password', usage);
}

import { parseArgs, type ParseArgsConfig } from 'node:util';
import { UsageError } from './usage-error.js';

type Options = NonNullable<ParseArgsConfig['options']>;

export interface ParsedArgs {
  values: Record<string, string | boolean | undefined>;
  positionals: string[];
}

/** Strict option parsing: an unknown option or a missing value is a usage error, never ignored. */
export function parseCommandArgs(argv: string[], options: Options, usage: string): ParsedArgs {
  try {
    const { values, positionals, tokens } = parseArgs({ args: argv, options: { ...options, help: { type: 'boolean', short: 'h' } }, allowPositionals: true, strict: true, tokens: true });
    // parseArgs keeps the last of a repeated option: `--scopes a --scopes b` would quietly mean b alone.
    const seen = new Set<string>();
    for (const token of tokens) {
      if (token.kind !== 'option') continue;
      if (seen.has(token.name)) throw new UsageError(`--${token.name} is given more than once; give it once${takesList(usage, token.name) ? ' (the list goes in one value, comma-separated)' : ''}.`, usage);
      seen.add(token.name);
    }
    if (values.help) {
      process.stdout.write(`${usage}\n`);
      process.exit(0);
    }
    return { values: values as ParsedArgs['values'], positionals };
  } catch (error) {
    throw new UsageError(parseErrorMessage(error), usage);
  }
}

/** Whether the usage writes the option's value as a LIST (comma-separated), as `--scopes LIST`. */
function takesList(usage: string, name: string): boolean {
  return usage.includes(`--${name} LIST`);
}

/**
 * Node's words for a parse error. For an unknown option it goes on to explain how to pass a
 * positional argument that starts with "-": advice for a typo'd option that only misleads
 * (most commands take no operands at all), so only its first sentence is kept.
 */
function parseErrorMessage(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  if ((error as NodeJS.ErrnoException).code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') return /^Unknown option '[^']*'\./.exec(error.message)?.[0] ?? error.message;
  return error.message;
}

/**
 * For a command that takes no operands. A stray word is most often the rest of an unquoted
 * value (`--scopes contacts:read contacts:write`, `--org Acme Corp`): dropping it would act
 * on part of what was meant.
 */
export function withoutPositionals(args: ParsedArgs, usage: string): ParsedArgs {
  const [extra] = args.positionals;
  if (extra !== undefined) {
    throw new UsageError(`Unexpected argument: ${extra}. Quote a value that holds spaces; join a list with commas.`, usage);
  }
  return args;
}

export function required(args: ParsedArgs, name: string, usage: string): string {
  const value = args.values[name];
  if (typeof value !== 'string' || value.trim() === '') throw new UsageError(`Missing required option --${name}.`, usage);
  return value;
}

export function optional(args: ParsedArgs, name: string): string | undefined {
  const value = args.values[name];
  return typeof value === 'string' ? value : undefined;
}

/** The longest duration read: 100 years. Longer ones would run past the dates a Date can hold and fail later, with a stack trace. */
const MAX_DURATION_DAYS = 36_500;

/** Parses 30d, 12h, 45m or 3600s into milliseconds. */
export function parseDuration(text: string, usage: string): number {
  const match = /^(\d+)\s*([smhd])$/.exec(text.trim());
  if (!match) throw new UsageError(`Cannot read the duration "${text}"; write e.g. 90d, 12h, 30m or 3600s.`, usage);
  const unit = { s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 }[match[2] as 's' | 'm' | 'h' | 'd'];
  const ms = Number(match[1]) * unit;
  if (ms <= 0) throw new UsageError('The duration must be positive.', usage);
  if (ms > MAX_DURATION_DAYS * 86_400_000) throw new UsageError(`The duration "${text}" is too long: at most ${MAX_DURATION_DAYS}d.`, usage);
  return ms;
}

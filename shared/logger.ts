import pino, { type DestinationStream, type Logger } from 'pino';

export type { Logger };

/**
 * Field names that may carry a secret. pino replaces them wherever they
 * appear in a log object, so a careless `log.info({ input })` cannot leak one.
 */
const SECRET_FIELDS = [
  'token',
  'password',
  'secret',
  'authorization',
  'access_token',
  'refresh_token',
  'authorization_code',
  'code_verifier',
  'client_secret',
  'token_hash',
  'password_hash',
];
const REDACTED_PATHS = [
  ...SECRET_FIELDS,
  ...SECRET_FIELDS.map((f) => `*.${f}`),
  'headers.cookie',
  '*.headers.cookie',
  '*.headers.authorization',
];

export interface LoggerOptions {
  level: string;
  /** The process role, e.g. `gateway` or `worker:contacts`. */
  component: string;
  /** File descriptor to write to; the CLI logs to stderr so `--json` output stays clean. */
  fd?: 1 | 2;
  /** Tests capture output here instead. */
  destination?: DestinationStream;
}

export function createLogger({ level, component, fd = 1, destination }: LoggerOptions): Logger {
  return pino(
    {
      level,
      base: { component },
      redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
    },
    destination ?? pino.destination({ fd, sync: fd === 2 }),
  );
}

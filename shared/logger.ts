import pino, { type DestinationStream, type Logger } from 'pino';

export type { Logger };

/**
 * Field names that may carry a secret. pino replaces them down to the third level of a
 * log object, so a careless `log.info({ input })` cannot leak one.
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
  'session_token',
  'current_password',
  'new_password',
  'temporary_password',
  'cookie',
  // Header names as a client or a library writes them: redaction matches keys exactly.
  'Authorization',
  'Cookie',
];
/** Down to the third level (`{ req: { headers: { authorization } } }`, `{ call: { input: { password } } }`). */
const REDACTED_PATHS = [...SECRET_FIELDS, ...SECRET_FIELDS.map((f) => `*.${f}`), ...SECRET_FIELDS.map((f) => `*.*.${f}`)];

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
    destination ?? (fd === 2 ? pino.destination({ fd, sync: true }) : bufferedStdout()),
  );
}

/** The longest a buffered log line waits before it is written (tests wait this long for a log to settle). */
export const LOG_FLUSH_INTERVAL_MS = 250;

const WARN = pino.levels.values.warn ?? 40;

/**
 * Service logs gathered into writes of 4 KB, or whatever is there every quarter second: one
 * write per line was a measurable share of a request's CPU (a system call, and a wake-up of
 * whatever reads the pipe). A warning or an error goes out at once, with what was buffered
 * before it, so an operator watching the log sees it when it happens. The rest is written when
 * the process exits, a crash included; a SIGKILL, a fatal V8 error or a signal that comes
 * before the shutdown handlers are installed can lose the last quarter second.
 */
function bufferedStdout(): DestinationStream {
  // Written synchronously when due: an asynchronous write waits for a thread of libuv's pool,
  // which password hashing and file reads share, so a busy pool held back whole logs.
  const buffer = pino.destination({ fd: 1, sync: true, minLength: 4096, periodicFlush: LOG_FLUSH_INTERVAL_MS });
  // pino flushes its own destinations on exit only when they write asynchronously.
  process.once('exit', () => {
    try {
      buffer.flushSync();
    } catch {
      // stdout already closed: nothing left to write to.
    }
  });
  // With this symbol set, pino tells the stream each line's level before writing it.
  const stream = {
    [pino.symbols.needsMetadataGsym]: true,
    lastLevel: 0,
    write(line: string) {
      buffer.write(line);
      if (stream.lastLevel >= WARN) buffer.flush();
    },
    flush: (callback?: (error?: Error) => void) => buffer.flush(callback),
  };
  return stream;
}

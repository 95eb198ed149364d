import { isDeepStrictEqual } from 'node:util';
import type { Operation } from '../../shared/bus/operation.js';

/**
 * With VALIDATE_REPLIES (tests, development): what is wrong with a handler's result, if
 * it does not match its operation's output schema exactly as it will be sent. Schemas
 * strip unknown keys and may transform values; production sends the handler's result
 * unparsed, so a result that parsing would change is as wrong as one that fails to parse.
 */
export function contractOutputProblem(op: Operation, result: unknown): string | null {
  const parsed = op.output.safeParse(result);
  if (!parsed.success) return parsed.error.message;
  const sent = asSent(result);
  if (!isDeepStrictEqual(sent, asSent(parsed.data))) return `more or other than the contract says: ${JSON.stringify(sent).slice(0, 500)}`;
  return null;
}

/** A value as the wire carries it (no undefined members, dates as text). */
function asSent(value: unknown): unknown {
  return value === undefined ? undefined : JSON.parse(JSON.stringify(value));
}

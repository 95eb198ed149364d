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
  const expected = asSent(parsed.data);
  // Names the fields only: their values may be secrets (a token, a webhook secret) and this text is logged.
  if (!isDeepStrictEqual(sent, expected)) return `more or other than the contract says, in: ${differingFields(sent, expected).join(', ')}`;
  return null;
}

/** Where two values differ, as paths (`data[1].password_hash`), the first few. */
function differingFields(sent: unknown, expected: unknown, path = '', found: string[] = []): string[] {
  if (found.length >= 10 || isDeepStrictEqual(sent, expected)) return found;
  if (typeof sent !== 'object' || sent === null || typeof expected !== 'object' || expected === null || Array.isArray(sent) !== Array.isArray(expected)) {
    found.push(path || '(the whole value)');
    return found;
  }
  const a = sent as Record<string, unknown>;
  const b = expected as Record<string, unknown>;
  for (const key of new Set([...Object.keys(a), ...Object.keys(b)])) {
    differingFields(a[key], b[key], Array.isArray(sent) ? `${path}[${key}]` : path ? `${path}.${key}` : key, found);
  }
  return found;
}

/** A value as the wire carries it (no undefined members, dates as text). */
function asSent(value: unknown): unknown {
  return value === undefined ? undefined : JSON.parse(JSON.stringify(value));
}

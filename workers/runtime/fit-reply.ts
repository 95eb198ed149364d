import { encodeReply } from '../../shared/bus/reply.js';
import type { Operation } from '../../shared/bus/operation.js';
import { MESSAGE_ENVELOPE_BYTES } from '../../shared/bus/transport.js';
import { InternalError } from '../../shared/errors.js';
import type { Logger } from '../../shared/logger.js';
import { omissionOf, shrinkOf } from './shrinkable-page.js';

/** How many bytes a reply may have on a bus that carries `maxMessageBytes`. */
export function replyBudget(maxMessageBytes: number): number {
  return maxMessageBytes - MESSAGE_ENVELOPE_BYTES;
}

/**
 * A reply that did not fit in one bus message (NATS refuses it, and the caller would only
 * see a timeout). A page is cut to the rows that fit, with `has_more` and the cursor after
 * the last of them (`limit` is at most, and the next page continues there): rows with long
 * custom field values make a page of 100 larger than 1 MB. A row or a result that is too
 * large alone is given in its shortened form where it has one (an event without its data,
 * as the stream carries it), so a feed never stops at it; anything else is an error reply.
 */
export function fitReply(op: Pick<Operation, 'output'>, result: unknown, replayed: boolean | undefined, first: Buffer, budget: number, log: Logger): Buffer {
  const shrink = shrinkOf(result);
  const rows = (result as { data?: unknown }).data;
  let size = first.length;
  if (shrink && Array.isArray(rows)) {
    let count = rows.length;
    while (count > 1) {
      // Proportionally, with some room: a few rounds at most, however the rows' sizes vary.
      count = Math.max(1, Math.min(count - 1, Math.floor((count * budget * 0.9) / size)));
      const reply = encodeReply(op, { ...(result as object), ...shrink(count) }, replayed);
      if (reply.length <= budget) {
        log.info({ rows: count, of: rows.length, bytes: reply.length }, 'page cut to fit in one bus message');
        return reply;
      }
      size = reply.length;
    }
  }
  const omit = omissionOf(result);
  if (omit) {
    const shortened = Array.isArray(rows) && shrink ? { ...(result as object), ...(rows.length > 1 ? shrink(1) : {}), data: rows.slice(0, 1).map(omit) } : omit(result);
    const reply = encodeReply(op, shortened, replayed);
    if (reply.length <= budget) {
      log.warn({ bytes: size }, 'a row too large for one bus message was given without its data');
      return reply;
    }
  }
  log.error({ bytes: size, max_bytes: budget }, 'reply larger than the bus carries');
  throw new InternalError(`The answer (${size} bytes) is larger than the message bus carries (${budget} bytes).`);
}

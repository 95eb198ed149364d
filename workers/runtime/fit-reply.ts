import { encodeReply } from '../../shared/bus/reply.js';
import type { Operation } from '../../shared/bus/operation.js';
import { InternalError } from '../../shared/errors.js';
import type { Logger } from '../../shared/logger.js';
import { shrinkOf } from './shrinkable-page.js';

/** Room left in a bus message for what NATS sends around a reply (protocol line, subject). */
const ENVELOPE_BYTES = 4 * 1024;

/** How many bytes a reply may have on a bus that carries `maxMessageBytes`. */
export function replyBudget(maxMessageBytes: number): number {
  return maxMessageBytes - ENVELOPE_BYTES;
}

/**
 * A reply that did not fit in one bus message (NATS refuses it, and the caller would only
 * see a timeout). A page is cut to the rows that fit, with `has_more` and the cursor after
 * the last of them (`limit` is at most, and the next page continues there): rows with long
 * custom field values make a page of 100 larger than 1 MB. Anything else that large, or a
 * single row, is an error reply instead.
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
  log.error({ bytes: size, max_bytes: budget }, 'reply larger than the bus carries');
  throw new InternalError(`The answer (${size} bytes) is larger than the message bus carries (${budget} bytes).`);
}

import t from 'tap';
import { resultOf, splitReply } from '../../shared/bus/reply.js';
import { InternalError } from '../../shared/errors.js';

/**
 * A reply whose head is fine but whose body is not JSON: an internal error that quotes
 * nothing of it. Before, JSON.parse's SyntaxError reached the gateway's error handler and
 * its log with the text around the fault, here a new token's plaintext.
 */
t.test("a reply body that is not JSON is an internal error that repeats none of it", async (t) => {
  const reply = splitReply(Buffer.from('{"ok":true}\n{"token":sk_live_ReplySecret0123456789}'));
  t.ok(reply, 'the head parses');
  if (!reply) return;
  const error = t.throws(() => resultOf(reply));
  t.type(error, InternalError);
  t.notMatch(error instanceof Error ? error.message : '', /sk_live|ReplySecret/);
  t.same(resultOf(splitReply(Buffer.from('{"ok":true}\n{"token":"fine"}')) ?? reply), { token: 'fine' }, 'a body that parses is the result');
});

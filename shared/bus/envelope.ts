import { z } from 'zod';
import { CallContext } from '../contracts/call-context.js';
import { ErrorPayload } from '../errors.js';

/** Every request on the bus: who is calling (when a workspace applies) and the operation's input. */
export const RequestEnvelope = z.object({
  context: CallContext.nullable(),
  input: z.unknown(),
});
export type RequestEnvelope = z.infer<typeof RequestEnvelope>;

/** Every reply: a result, or a typed error that the caller turns back into a CrmError. */
export const ReplyEnvelope = z.discriminatedUnion('ok', [
  z.object({ ok: z.literal(true), result: z.unknown(), replayed: z.boolean().optional() }),
  z.object({ ok: z.literal(false), error: ErrorPayload }),
]);
export type ReplyEnvelope = z.infer<typeof ReplyEnvelope>;

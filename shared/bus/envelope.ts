import { z } from 'zod';
import { CallContext } from '../contracts/call-context.js';

/** Every request on the bus: who is calling (when a workspace applies) and the operation's input. */
export const RequestEnvelope = z.object({
  context: CallContext.nullable(),
  input: z.unknown(),
});
export type RequestEnvelope = z.infer<typeof RequestEnvelope>;

// Replies have their own wire form: ./reply.ts.

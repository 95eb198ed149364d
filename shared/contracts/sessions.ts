import { z } from 'zod';
import { defineOperation } from '../bus/operation.js';

/** Browser sessions for the sign-in, consent and console pages (tokens worker). */
const SessionUser = z.object({ session_id: z.string(), user: z.object({ id: z.string(), email: z.string() }) });

export const signIn = defineOperation({
  worker: 'tokens',
  name: 'session-sign-in',
  scoped: false,
  input: z.object({ email: z.string().max(254), password: z.string().max(200), ip: z.string().max(100) }),
  /** session_token goes into the HttpOnly cookie; only its hash is stored. */
  output: SessionUser.extend({ session_token: z.string() }),
});

export const resolveSession = defineOperation({
  worker: 'tokens',
  name: 'session-resolve',
  scoped: false,
  input: z.object({ session_token: z.string().max(512) }),
  output: SessionUser,
});

export const signOut = defineOperation({
  worker: 'tokens',
  name: 'session-sign-out',
  scoped: false,
  input: z.object({ session_token: z.string().max(512) }),
  output: z.object({ signed_out: z.boolean() }),
});

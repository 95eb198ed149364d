import { z } from 'zod';
import { Permission, Visibility } from '../auth/permissions.js';
import { defineOperation } from '../bus/operation.js';
import { Password } from './identity.js';

/**
 * How long a browser session lives: it ends after a day without a page seen (sliding), and
 * in any case a week after sign-in (absolute), so a stolen cookie kept warm still dies.
 */
export const SESSION_LIFETIME = { idleHours: 24, absoluteDays: 7 } as const;

/** Browser sessions for the sign-in, consent and console pages (tokens worker). */
const SessionUser = z.object({ session_id: z.string(), user: z.object({ id: z.string(), email: z.string() }) });

export const signIn = defineOperation({
  worker: 'tokens',
  resource: 'sessions',
  verb: 'sign-in',
  scoped: false,
  input: z.object({ email: z.string().max(254), password: z.string().max(200), ip: z.string().max(100) }),
  /** session_token goes into the HttpOnly cookie; only its hash is stored. */
  output: SessionUser.extend({ session_token: z.string() }),
});

export const resolveSession = defineOperation({
  worker: 'tokens',
  resource: 'sessions',
  verb: 'resolve',
  readOnly: true,
  scoped: false,
  input: z.object({ session_token: z.string().max(512) }),
  output: SessionUser,
});

export const signOut = defineOperation({
  worker: 'tokens',
  resource: 'sessions',
  verb: 'sign-out',
  scoped: false,
  input: z.object({ session_token: z.string().max(512) }),
  output: z.object({ signed_out: z.boolean() }),
});

/** One workspace of a signed-in user, with their permissions there. */
export const SessionMembership = z.object({
  workspace_id: z.string(),
  workspace_name: z.string(),
  organization_name: z.string(),
  /** The workspace's time zone (IANA): the console shows its times in it. UTC when absent (a tokens worker of an earlier release). */
  time_zone: z.string().default('UTC'),
  permissions: z.array(Permission),
  visibility: Visibility,
});
export type SessionMembership = z.infer<typeof SessionMembership>;

/** The console's view of a session: the user and every workspace they belong to, with their permissions there. */
export const sessionMemberships = defineOperation({
  worker: 'tokens',
  resource: 'sessions',
  verb: 'list-memberships',
  readOnly: true,
  scoped: false,
  input: z.object({ session_token: z.string().max(512) }),
  output: SessionUser.extend({
    /** The user still has the temporary password of an invitation. */
    password_change_required: z.boolean(),
    memberships: z.array(SessionMembership),
  }),
});

/**
 * A signed-in user replaces their password. Every other session of theirs ends, so a
 * temporary or leaked password stops being useful the moment it is changed, and the
 * current one is replaced by a new session (its token goes into the cookie).
 */
export const changePassword = defineOperation({
  worker: 'tokens',
  resource: 'sessions',
  verb: 'change-password',
  scoped: false,
  /** ip: the client's, as for sign-in: the current-password check counts against the same limits. */
  input: z.object({ session_token: z.string().max(512), current_password: z.string().max(200), new_password: Password, ip: z.string().max(100) }),
  output: z.object({ changed: z.literal(true), sessions_ended: z.number().int(), session_token: z.string() }),
});

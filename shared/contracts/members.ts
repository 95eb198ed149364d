import { z } from 'zod';
import { GrantedPermissions, Permission, Visibility } from '../auth/permissions.js';
import { defineOperation } from '../bus/operation.js';
import { Cursor, DEFAULT_PAGE_SIZE, PageLimit, pageOf } from './common.js';
import { Member, UserEmail } from './identity.js';

/** Workspace membership administration (tokens worker); administrators only. */
export const MemberRecord = z.object({
  user_id: z.string(),
  email: z.string(),
  permissions: z.array(Permission),
  visibility: Visibility,
  created_at: z.string(),
});
export type MemberRecord = z.infer<typeof MemberRecord>;

/** A member as events carry it (`member.added`, …): `id` is its user's, by which members are addressed. */
export const MemberEventObject = Member.extend({
  id: z.string().describe('The member\'s user (usr_…)'),
}).meta({ id: 'MemberEventObject' });
export type MemberEventObject = z.infer<typeof MemberEventObject>;

/** How long a members search may be: longer than any part of an address an administrator types. */
export const MEMBER_SEARCH_MAX = 100;

/**
 * Part of a member's e-mail, anywhere in it and in any case: an administrator looks for
 * `smith` in jane.smith@… or for a domain (`@example.com`), which a prefix would miss.
 */
export const MemberEmailSearch = z
  .string()
  .trim()
  .min(1, 'must not be empty: leave it out to list every member')
  .max(MEMBER_SEARCH_MAX, `must be at most ${MEMBER_SEARCH_MAX} characters`)
  .describe('Members whose e-mail contains this text, in any case; % and _ are literal');

/**
 * The members a page at a time, in the order they joined (oldest first), with how many there
 * are in all: a workspace of hundreds of members was read, and drawn, in one piece. With
 * `email_contains`, only the members whose e-mail contains it, and `total` counts those; a
 * cursor continues only the search it came from.
 */
export const listMembers = defineOperation({
  worker: 'tokens',
  resource: 'members',
  verb: 'list',
  readOnly: true,
  scope: 'tokens:write',
  input: z.strictObject({ limit: PageLimit.default(DEFAULT_PAGE_SIZE), cursor: Cursor.optional(), email_contains: MemberEmailSearch.optional() }),
  output: pageOf(MemberRecord).extend({ total: z.number().int().describe('Members of the workspace in all, or those matching email_contains') }),
});

/** One member of the workspace (the console's change and remove pages). */
export const getMember = defineOperation({
  worker: 'tokens',
  resource: 'members',
  verb: 'get',
  readOnly: true,
  scope: 'tokens:write',
  input: z.strictObject({ user_id: z.string().max(64) }),
  output: MemberRecord,
});

/**
 * The workspace's members by e-mail, for naming the owner of a record to any member who reads
 * records (the Activity page already names people by e-mail): a bare usr_… id says nothing.
 * An administrator (tokens:write) gets them too, in one call rather than a page of
 * members.list at a time.
 */
export const nameMembers = defineOperation({
  worker: 'tokens',
  resource: 'members',
  verb: 'name',
  readOnly: true,
  scope: ['contacts:read', 'deals:read', 'tokens:write'],
  input: z.strictObject({}),
  output: z.object({ members: z.array(z.object({ user_id: z.string(), email: z.string() })) }),
});

export const inviteMember = defineOperation({
  worker: 'tokens',
  resource: 'members',
  verb: 'invite',
  scope: 'tokens:write',
  input: z.strictObject({ email: UserEmail, permissions: GrantedPermissions, visibility: Visibility }),
  /**
   * temporary_password: only for a user created (or, a member nowhere, given a new one) by the invitation, shown once
   * and stored only as a hash. first_sign_in_pending: an existing user still holds the temporary password of an earlier
   * invitation in the organization, which is theirs to sign in with (false from a tokens worker of an earlier release).
   */
  output: z.object({ member: MemberRecord, temporary_password: z.string().nullable(), first_sign_in_pending: z.boolean().default(false) }),
});

export const updateMember = defineOperation({
  worker: 'tokens',
  resource: 'members',
  verb: 'update',
  destructive: true,
  scope: 'tokens:write',
  input: z.strictObject({ user_id: z.string().max(64), permissions: GrantedPermissions, visibility: Visibility }),
  output: MemberRecord,
});

export const removeMember = defineOperation({
  worker: 'tokens',
  resource: 'members',
  verb: 'remove',
  destructive: true,
  scope: 'tokens:write',
  input: z.strictObject({ user_id: z.string().max(64) }),
  output: z.object({ removed: z.boolean() }),
});

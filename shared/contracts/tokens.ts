import { z } from 'zod';
import { Scope } from '../auth/scopes.js';
import { defineOperation } from '../bus/operation.js';
import { Cursor, Empty, isoInstant, PageLimit, pageOf, shownText, Timestamp } from './common.js';

export const ApiToken = z
  .object({
    object: z.literal('token'),
    id: z.string(),
    name: z.string(),
    workspace_id: z.string(),
    scopes: z.array(Scope),
    display_hint: z.string().describe('sk_live_… and the last four characters'),
    created_by: z.string().nullable().describe('usr_… or tok_… that created it; null when created with the crm command line'),
    parent_id: z
      .string()
      .nullable()
      .describe('The token (tok_…) that created this one, which it never outlives; null when a person or the crm command line created it'),
    created_at: Timestamp,
    last_used_at: Timestamp.nullable(),
    expires_at: Timestamp.nullable(),
    revoked_at: Timestamp.nullable(),
  })
  .meta({ id: 'Token' });
export type ApiToken = z.infer<typeof ApiToken>;

/** Whether a token's expiry has passed: it is refused, though listed until revoked. */
export function tokenExpired(token: Pick<ApiToken, 'expires_at'>, now = Date.now()): boolean {
  return token.expires_at !== null && Date.parse(token.expires_at) <= now;
}

/** Only the create reply carries the plaintext, once. */
export const CreatedApiToken = ApiToken.extend({
  token: z.string().describe('The secret. Shown only in this response; store it now.'),
}).meta({ id: 'CreatedToken' });

export const CreateTokenInput = z.strictObject({
  // Something that shows: a name of only invisible characters (U+200B) is a blank row in every list of tokens.
  name: shownText(100, 'is required'),
  scopes: z.array(Scope).min(1, 'at least one scope is required').max(20),
  expires_at: isoInstant('must be an ISO 8601 timestamp')
    .nullable()
    .optional()
    .describe('Omitted or null: no expiry, or, for a token created by a token, the creating token\'s expiry; never later than it'),
});
export type CreateTokenInput = z.infer<typeof CreateTokenInput>;

/** What the gateway learns from a bearer token. */
export const AuthenticatedToken = z.object({
  token_id: z.string(),
  workspace_id: z.string(),
  scopes: z.array(Scope),
  expires_at: Timestamp.nullable(),
});
export type AuthenticatedToken = z.infer<typeof AuthenticatedToken>;

export const TokenDescription = z
  .object({
    object: z.literal('token'),
    id: z.string(),
    name: z.string(),
    workspace: z.object({ id: z.string(), name: z.string() }),
    organization: z.object({ id: z.string(), name: z.string() }),
    scopes: z.array(Scope),
    created_by: z.string().nullable(),
    expires_at: Timestamp.nullable(),
  })
  .meta({ id: 'Me' });

export const authenticateToken = defineOperation({
  worker: 'tokens',
  resource: 'api-tokens',
  verb: 'authenticate',
  readOnly: true,
  scoped: false,
  input: z.object({ token: z.string().max(512) }),
  output: AuthenticatedToken,
});

export const describeToken = defineOperation({
  worker: 'tokens',
  resource: 'api-tokens',
  verb: 'describe',
  readOnly: true,
  input: Empty,
  output: TokenDescription,
});

export const createToken = defineOperation({
  worker: 'tokens',
  resource: 'api-tokens',
  verb: 'create',
  scope: 'tokens:write',
  input: CreateTokenInput,
  output: CreatedApiToken,
});

export const listTokens = defineOperation({
  worker: 'tokens',
  resource: 'api-tokens',
  verb: 'list',
  readOnly: true,
  scope: 'tokens:write',
  input: z.strictObject({ limit: PageLimit, cursor: Cursor.optional(), include_revoked: z.boolean().optional() }),
  output: pageOf(ApiToken),
});

/** One token of the workspace, revoked or not (the console's revoke confirmation). */
export const getToken = defineOperation({
  worker: 'tokens',
  resource: 'api-tokens',
  verb: 'get',
  readOnly: true,
  scope: 'tokens:write',
  input: z.strictObject({ id: z.string().max(64) }),
  output: ApiToken,
});

/**
 * The creators of the workspace's tokens, by name, for the console's list: the `created_by`
 * ids a page of tokens carries, as e-mails (a member removed since too) and as token names
 * (a revoked token, or one on another page, too). Only a user who created one of this
 * workspace's tokens is named, so no other user's e-mail can be asked for by id.
 */
export const nameTokenCreators = defineOperation({
  worker: 'tokens',
  resource: 'api-tokens',
  verb: 'name-creators',
  readOnly: true,
  scope: 'tokens:write',
  input: z.strictObject({ ids: z.array(z.string().max(64)).max(100) }),
  output: z.object({
    users: z.array(z.object({ id: z.string(), email: z.string(), member: z.boolean().describe('Still a member of the workspace') })),
    tokens: z.array(z.object({ id: z.string(), name: z.string(), revoked: z.boolean() })),
  }),
});

/** Revokes a token, and with `revoke_children` every token it created, theirs too, in one transaction. */
export const revokeToken = defineOperation({
  worker: 'tokens',
  resource: 'api-tokens',
  verb: 'revoke',
  destructive: true,
  scope: 'tokens:write',
  input: z.strictObject({ id: z.string().max(64), revoke_children: z.boolean().optional() }),
  output: ApiToken,
});

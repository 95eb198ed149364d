import { z } from 'zod';
import { Scope } from '../auth/scopes.js';
import { defineOperation } from '../bus/operation.js';
import { Cursor, DEFAULT_PAGE_SIZE, PageLimit, pageOf, Timestamp } from './common.js';
import { McpServerKey } from './oauth.js';

/** Connected agents: the OAuth grants of a workspace (tokens worker). */
export const ConnectedAgent = z.object({
  id: z.string(),
  client_name: z.string().nullable(),
  redirect_host: z.string(),
  server: McpServerKey,
  user: z.object({ id: z.string(), email: z.string() }),
  scopes: z.array(Scope),
  allows_changes: z.boolean(),
  created_at: z.string(),
  last_used_at: z.string().nullable(),
  revoked_at: z.string().nullable(),
});
export type ConnectedAgent = z.infer<typeof ConnectedAgent>;

/** A connected agent as events carry it (`agent.connected`, `agent.revoked`): the grant, its client and its user. */
export const Agent = z
  .object({
    object: z.literal('agent'),
    id: z.string().describe('The grant (gnt_…)'),
    client: z.object({ id: z.string(), name: z.string().nullable() }).describe('The OAuth client, as it named itself at registration'),
    user: z.object({ id: z.string(), email: z.string() }).describe('The user it acts for'),
    scopes: z.array(Scope),
    created_at: Timestamp,
    revoked_at: Timestamp.nullable(),
  })
  .meta({ id: 'Agent' });
export type Agent = z.infer<typeof Agent>;

/**
 * Administrators see every grant of the workspace; other members see their own. A page at a
 * time, newest first, with how many there are in all: an agent platform whose every sign-in
 * is a new client leaves hundreds, which were read in one piece.
 */
export const listGrants = defineOperation({
  worker: 'tokens',
  resource: 'oauth',
  verb: 'list-grants',
  readOnly: true,
  input: z.strictObject({ include_revoked: z.boolean().optional(), limit: PageLimit.default(DEFAULT_PAGE_SIZE), cursor: Cursor.optional() }),
  output: pageOf(ConnectedAgent).extend({ total: z.number().int().describe('Agents in all under the same filter') }),
});

/** One connected agent, under the same rule: an administrator's any, a member's own. */
export const getGrant = defineOperation({
  worker: 'tokens',
  resource: 'oauth',
  verb: 'get-grant',
  readOnly: true,
  input: z.strictObject({ grant_id: z.string().max(64) }),
  output: ConnectedAgent,
});

/** Its user or an administrator may revoke a grant; gateways stop honouring it within seconds. */
export const revokeGrantById = defineOperation({
  worker: 'tokens',
  resource: 'oauth',
  verb: 'revoke-grant',
  destructive: true,
  input: z.strictObject({ grant_id: z.string().max(64) }),
  output: ConnectedAgent,
});

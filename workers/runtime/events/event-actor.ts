import type { CallContext } from '../../../shared/contracts/call-context.js';
import type { Actor } from '../../../shared/contracts/events.js';
import type { WorkspaceSql } from '../../../shared/db/workspace-sql.js';

/** The command line, as events name it. */
export const CLI_ACTOR: Actor = { kind: 'cli', id: null, name: 'crm command line', user: null };

/** The service itself, for changes no caller asked for (a grant revoked because its code was replayed). */
export const SYSTEM_ACTOR: Actor = { kind: 'system', id: null, name: 'crm service', user: null };

/**
 * Names of tokens and users do not change once made (a token is never renamed, a user's
 * e-mail stays), so a worker looks each one up once. Bounded: the oldest entries leave
 * first. Agents are looked up every time: a client described by a metadata document takes
 * the name the document gives at each refresh, and every worker copy must name it alike.
 */
const KNOWN = new Map<string, Actor>();
const KNOWN_MAX = 5_000;

/**
 * Who made a change, from the credential the gateway resolved: an API token, an agent
 * connected over OAuth (its client and the user it acts for), a console user, or the
 * command line (`import` for a bulk import).
 */
export async function actorOf(db: WorkspaceSql, context: CallContext, cliKind: 'cli' | 'import' = 'cli'): Promise<Actor> {
  const { principal } = context;
  if (principal.type === 'operator') return cliKind === 'cli' ? CLI_ACTOR : { ...CLI_ACTOR, kind: 'import', name: 'crm import' };
  if (principal.type === 'user' && principal.grant_id) return lookUp(db, context);
  const key = `${db.workspaceId}:${principal.type}:${principal.id}`;
  const known = KNOWN.get(key);
  if (known) return known;

  const actor = await lookUp(db, context);
  if (KNOWN.size >= KNOWN_MAX) KNOWN.delete(KNOWN.keys().next().value as string);
  KNOWN.set(key, actor);
  return actor;
}

async function lookUp(db: WorkspaceSql, { principal }: CallContext): Promise<Actor> {
  if (principal.type === 'token') {
    const token = await db.selectFrom('api_tokens').select('name').where('id', '=', principal.id).executeTakeFirst();
    return { kind: 'api_token', id: principal.id, name: token?.name ?? principal.id, user: null };
  }
  if (principal.type !== 'user') return CLI_ACTOR;
  const user = await db.global.selectFrom('users').select(['id', 'email']).where('id', '=', principal.id).executeTakeFirst();
  const person = { id: principal.id, email: user?.email ?? principal.id };
  if (!principal.grant_id) return { kind: 'console_user', id: principal.id, name: person.email, user: person };
  const client = await db
    .selectFrom('oauth_grants')
    .innerJoin('oauth_clients', 'oauth_clients.id', 'oauth_grants.client_id')
    .select('oauth_clients.client_name')
    .where('oauth_grants.id', '=', principal.grant_id)
    .executeTakeFirst();
  return { kind: 'oauth_agent', id: principal.grant_id, name: client?.client_name ?? 'AI agent', user: person };
}

import type { CallContext } from '../../../shared/contracts/call-context.js';
import type { ConnectedAgent, getGrant, listGrants, revokeGrantById } from '../../../shared/contracts/grants.js';
import type { EntityManager } from '../../../shared/db/orm.js';
import { isoTimestamp, isoTimestampOrNull } from '../../../shared/db/sql.js';
import type { WorkspaceSql } from '../../../shared/db/workspace-sql.js';
import { ForbiddenError, NotFoundError } from '../../../shared/errors.js';
import type { OperationHandler } from '../../runtime/worker-call.js';
import { isAdministrator } from '../members/grantable-scopes.js';
import { announceGrantChanged, revokeGrant } from './revoke-grant.js';

/** Administrators (and the operator) see every grant; other members only their own. */
async function onlyUser(em: EntityManager, context: CallContext): Promise<string | null> {
  if (context.principal.type === 'operator') return null;
  if (context.principal.type === 'token') throw new ForbiddenError('Connected agents are managed by signed-in members.');
  return (await isAdministrator(em, context)) ? null : context.principal.id;
}

async function agents(db: WorkspaceSql, filter: { userId: string | null; grantId?: string; includeRevoked: boolean }): Promise<ConnectedAgent[]> {
  const rows = await db
    .selectFrom('oauth_grants as g')
    .innerJoin('oauth_clients as c', 'c.id', 'g.client_id')
    .innerJoin('users as u', 'u.id', 'g.user_id')
    .select(['g.id', 'c.client_name', 'c.redirect_uris', 'g.server', 'u.id as user_id', 'u.email', 'g.scopes', 'g.allows_changes', 'g.created_at', 'g.last_used_at', 'g.revoked_at'])
    .$if(filter.userId !== null, (q) => q.where('g.user_id', '=', filter.userId!))
    .$if(filter.grantId !== undefined, (q) => q.where('g.id', '=', filter.grantId!))
    .$if(!filter.includeRevoked, (q) => q.where('g.revoked_at', 'is', null))
    .orderBy('g.created_at', 'desc')
    .execute();
  return rows.map((r) => ({
    id: r.id,
    client_name: r.client_name,
    redirect_host: r.redirect_uris[0] ? new URL(r.redirect_uris[0]).host : '',
    server: r.server,
    user: { id: r.user_id, email: r.email },
    scopes: r.scopes,
    allows_changes: r.allows_changes,
    created_at: isoTimestamp(r.created_at),
    last_used_at: isoTimestampOrNull(r.last_used_at),
    revoked_at: isoTimestampOrNull(r.revoked_at),
  }));
}

export const listGrantsHandler: OperationHandler<typeof listGrants> = async ({ input, context, em, db }) => ({
  agents: await agents(db, { userId: await onlyUser(em, context), includeRevoked: input.include_revoked === true }),
});

export const getGrantHandler: OperationHandler<typeof getGrant> = async ({ input, context, em, db }) => {
  const [agent] = await agents(db, { userId: await onlyUser(em, context), grantId: input.grant_id, includeRevoked: true });
  if (!agent) throw new NotFoundError('connected agent', input.grant_id, 'grant_id');
  return agent;
};

export const revokeGrantByIdHandler: OperationHandler<typeof revokeGrantById> = async ({ input, context, em, db, events, services, afterCommit }) => {
  const userId = await onlyUser(em, context);
  const [agent] = await agents(db, { userId, grantId: input.grant_id, includeRevoked: true });
  if (!agent) throw new NotFoundError('connected agent', input.grant_id, 'grant_id');
  const now = new Date();
  await revokeGrant(db, events, agent.id, userId ? 'revoked by its user' : 'revoked by an administrator', now);
  afterCommit(() => announceGrantChanged(services, agent.id));
  // A grant revoked before keeps its first time; timestamptz(3) stores `now` exactly, so no need to read it back.
  return { ...agent, revoked_at: agent.revoked_at ?? now.toISOString() };
};

import type { CallContext } from '../../../shared/contracts/call-context.js';
import type { ConnectedAgent, getGrant, listGrants, revokeGrantById } from '../../../shared/contracts/grants.js';
import type { EntityManager } from '../../../shared/db/orm.js';
import { isoTimestamp, isoTimestampOrNull } from '../../../shared/db/sql.js';
import type { WorkspaceSql } from '../../../shared/db/workspace-sql.js';
import { ForbiddenError, NotFoundError } from '../../../shared/errors.js';
import { decodeCursor, pageFrom, type CursorScope, type KeysetPosition } from '../../runtime/keyset-cursor.js';
import { beforePosition } from '../../runtime/keyset-sql.js';
import type { OperationHandler } from '../../runtime/worker-call.js';
import { isAdministrator } from '../members/grantable-scopes.js';
import { announceGrantChanged, revokeGrant } from './revoke-grant.js';

/** Administrators (and the operator) see every grant; other members only their own. */
async function onlyUser(em: EntityManager, context: CallContext): Promise<string | null> {
  if (context.principal.type === 'operator') return null;
  if (context.principal.type === 'token') throw new ForbiddenError('Connected agents are managed by signed-in members.');
  return (await isAdministrator(em, context)) ? null : context.principal.id;
}

interface GrantFilter {
  userId: string | null;
  grantId?: string;
  includeRevoked: boolean;
}

/** The grants under a filter, newest first: (created_at, id) descending, so a page ends where the next begins. */
function grantRows(db: WorkspaceSql, filter: GrantFilter, page?: { limit: number; before: KeysetPosition | undefined }) {
  return db
    .selectFrom('oauth_grants as g')
    .innerJoin('oauth_clients as c', 'c.id', 'g.client_id')
    .innerJoin('users as u', 'u.id', 'g.user_id')
    .select(['g.id', 'c.client_name', 'c.redirect_uris', 'g.server', 'u.id as user_id', 'u.email', 'g.scopes', 'g.allows_changes', 'g.created_at', 'g.last_used_at', 'g.revoked_at'])
    .$if(filter.userId !== null, (q) => q.where('g.user_id', '=', filter.userId!))
    .$if(filter.grantId !== undefined, (q) => q.where('g.id', '=', filter.grantId!))
    .$if(!filter.includeRevoked, (q) => q.where('g.revoked_at', 'is', null))
    .$if(page?.before !== undefined, (q) => q.where(beforePosition(page!.before!, 'g')))
    .orderBy('g.created_at', 'desc')
    .orderBy('g.id', 'desc')
    .$if(page !== undefined, (q) => q.limit(page!.limit + 1))
    .execute();
}

type GrantRow = Awaited<ReturnType<typeof grantRows>>[number];

function connectedAgent(r: GrantRow): ConnectedAgent {
  return {
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
  };
}

async function agents(db: WorkspaceSql, filter: GrantFilter): Promise<ConnectedAgent[]> {
  return (await grantRows(db, filter)).map(connectedAgent);
}

export const listGrantsHandler: OperationHandler<typeof listGrants> = async ({ input, context, em, db, services }) => {
  const filter: GrantFilter = { userId: await onlyUser(em, context), includeRevoked: input.include_revoked === true };
  // Bound to whose grants too: a member's cursor is no use in an administrator's list, nor the other way round.
  const scope: CursorScope = { workspaceId: context.workspace_id, list: 'agents', filters: { user: filter.userId, include_revoked: filter.includeRevoked } };
  const before = input.cursor ? decodeCursor(services.secrets.cursorKey, scope, input.cursor) : undefined;
  const rows = await grantRows(db, filter, { limit: input.limit, before });
  const count = await db
    .selectFrom('oauth_grants')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .$if(filter.userId !== null, (q) => q.where('user_id', '=', filter.userId!))
    .$if(!filter.includeRevoked, (q) => q.where('revoked_at', 'is', null))
    .executeTakeFirstOrThrow();
  return { ...pageFrom(rows, input.limit, services.secrets.cursorKey, scope, connectedAgent), total: Number(count.n) };
};

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

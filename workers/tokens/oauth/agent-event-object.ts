import type { Agent } from '../../../shared/contracts/grants.js';
import { isoTimestamp, isoTimestampOrNull } from '../../../shared/db/sql.js';
import type { WorkspaceSql } from '../../../shared/db/workspace-sql.js';

/** Connected agents (grants of the workspace) as their events carry them, with their client and user. */
export async function agentEventObjects(db: WorkspaceSql, grantIds: readonly string[]): Promise<Agent[]> {
  if (grantIds.length === 0) return [];
  const rows = await db
    .selectFrom('oauth_grants as g')
    .innerJoin('oauth_clients as c', 'c.id', 'g.client_id')
    .innerJoin('users as u', 'u.id', 'g.user_id')
    .select(['g.id', 'c.id as client_id', 'c.client_name', 'u.id as user_id', 'u.email', 'g.scopes', 'g.created_at', 'g.revoked_at'])
    .where('g.id', 'in', grantIds)
    .orderBy('g.created_at')
    .execute();
  return rows.map((r) => ({
    object: 'agent',
    id: r.id,
    client: { id: r.client_id, name: r.client_name },
    user: { id: r.user_id, email: r.email },
    scopes: r.scopes,
    created_at: isoTimestamp(r.created_at),
    revoked_at: isoTimestampOrNull(r.revoked_at),
  }));
}

import { sql } from 'kysely';
import type { EntityManager } from '../../../shared/db/orm.js';
import { crossWorkspaceSql } from '../../../shared/db/cross-workspace-sql.js';
import { sqlOf } from '../../../shared/db/sql.js';

/** A registered client that no user approved in this many days is purged. */
export const UNUSED_CLIENT_DAYS = 30;

/** Drops what can no longer be used: old sign-in attempts, expired sessions, requests, codes and refresh tokens, unused clients. */
export async function purgeExpiredIdentityRecords(em: EntityManager): Promise<number> {
  const statements = [
    sql`delete from sign_in_attempts where created_at < now() - interval '1 day'`,
    sql`delete from user_sessions where expires_at < now() - interval '1 day' or revoked_at < now() - interval '1 day'`,
    sql`delete from oauth_authorization_requests where expires_at < now() - interval '1 day'`,
    sql`delete from oauth_codes where expires_at < now() - interval '1 day'`,
    sql`delete from oauth_refresh_tokens where expires_at < now() - interval '1 day'`,
  ];
  let removed = 0;
  for (const statement of statements) removed += Number((await statement.execute(sqlOf(em))).numAffectedRows ?? 0);
  // Anyone may register a client; one nobody ever approved (no grant in any workspace) goes after 30 days.
  const unused = await crossWorkspaceSql(em, 'maintenance: a client is unused only if no workspace holds a grant for it')
    .deleteFrom('oauth_clients as c')
    .where('c.first_consented_at', 'is', null)
    .where('c.created_at', '<', new Date(Date.now() - UNUSED_CLIENT_DAYS * 86_400_000).toISOString())
    .where(({ not, exists, selectFrom }) => not(exists(selectFrom('oauth_grants as g').select('g.id').whereRef('g.client_id', '=', 'c.id'))))
    .executeTakeFirst();
  return removed + Number(unused.numDeletedRows);
}

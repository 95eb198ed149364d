import { sql } from 'kysely';
import type { EntityManager } from '../../../shared/db/orm.js';
import { sqlOf } from '../../../shared/db/sql.js';

/** Drops what can no longer be used: old sign-in attempts, expired sessions, requests, codes and refresh tokens. */
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
  return removed;
}

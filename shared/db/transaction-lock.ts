import { sql } from 'kysely';
import type { Sql } from './sql.js';

/**
 * Waits for, then holds until the transaction ends, a Postgres advisory lock named `key`.
 * For a check that no row lock covers (a count, a "the only one" rule): transactions that
 * take the same key run that check one after another, each seeing what the one before
 * committed. The key names what it guards and whose (`crm administrators:<workspace>`).
 */
export async function lockUntilTransactionEnds(db: Sql, key: string): Promise<void> {
  await sql`select pg_advisory_xact_lock(hashtextextended(${key}, 0))`.execute(db);
}

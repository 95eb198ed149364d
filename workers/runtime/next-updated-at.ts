import { sql } from 'kysely';

/**
 * The updated_at of a write to a contact or deal, in its UPDATE: now, but at least a
 * millisecond after the version it replaces. The entity tag is updated_at to the
 * millisecond (shared/contracts/entity-tags.ts): two writes within one millisecond would
 * otherwise give two versions one tag, and If-Match could not tell them apart.
 */
export function nextUpdatedAtSql() {
  return sql<string>`greatest(clock_timestamp(), updated_at + interval '1 millisecond')`;
}

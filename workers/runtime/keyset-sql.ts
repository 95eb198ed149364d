import { sql, type RawBuilder } from 'kysely';
import type { KeysetPosition } from './keyset-cursor.js';

/**
 * "Rows after this position" in (created_at, id) order, written so that Postgres uses
 * the leading `created_at >=` as an index condition on (workspace_id, created_at, id).
 */
export function afterPosition(position: KeysetPosition, table?: string): RawBuilder<boolean> {
  const column = (name: string) => sql.ref(table ? `${table}.${name}` : name);
  return sql<boolean>`(${column('created_at')} >= ${position.createdAt} and (${column('created_at')} > ${position.createdAt} or ${column('id')} > ${position.id}))`;
}

/** "Rows before this position": the next page of a list read newest first. */
export function beforePosition(position: KeysetPosition, table?: string): RawBuilder<boolean> {
  const column = (name: string) => sql.ref(table ? `${table}.${name}` : name);
  return sql<boolean>`(${column('created_at')} <= ${position.createdAt} and (${column('created_at')} < ${position.createdAt} or ${column('id')} < ${position.id}))`;
}

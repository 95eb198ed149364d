import { sql } from 'kysely';
import type { CustomFieldObject } from '../../shared/db/entities/custom-field.js';
import type { WorkspaceSql } from '../../shared/db/workspace-sql.js';
import { ConflictError } from '../../shared/errors.js';

const TABLES = { contact: 'contacts', deal: 'deals' } as const satisfies Record<CustomFieldObject, string>;

/**
 * A select field's new options replace the old ones: an option that records still hold may
 * not go, or those records would keep a value the field no longer allows (and a later write
 * of it would fail). The refusal names the options and how many records hold them.
 */
export async function refuseRemovingOptionsInUse(
  db: WorkspaceSql,
  field: { object_type: CustomFieldObject; key: string; options: string[] | null; archived_at: unknown },
  next: string[],
): Promise<void> {
  // Compared in NFC, as `next` is (uniqueName): an option or a value stored before options were
  // kept so is the same option as its NFC form.
  const kept = new Set(next.map((option) => option.normalize('NFC')));
  const removed = (field.options ?? []).map((option) => option.normalize('NFC')).filter((option) => !kept.has(option));
  if (removed.length === 0) return;
  const table = TABLES[field.object_type];
  const held = await db
    .selectFrom(table)
    .select([sql<string>`normalize(custom_fields ->> ${field.key}, NFC)`.as('value'), sql<number>`count(*)::int`.as('records')])
    .where(sql<boolean>`normalize(custom_fields ->> ${field.key}, NFC) = any(${removed}::text[])`)
    .groupBy(sql`1`)
    .orderBy(sql`1`)
    .execute();
  if (held.length === 0) return;
  const which = held.map((h) => `"${h.value}" (${h.records} ${h.records === 1 ? field.object_type : table})`).join(', ');
  // An archived field's values cannot be written, so its records change only once it is restored.
  const remedy = field.archived_at === null ? 'change those records first' : 'restore the field (archived: false) and change those records first: an archived field cannot be written';
  throw new ConflictError(
    `options replaces the whole list, and it leaves out ${which} still held by records. Keep ${held.length === 1 ? 'it' : 'them'} in the list, or ${remedy}.`,
    'options',
  );
}

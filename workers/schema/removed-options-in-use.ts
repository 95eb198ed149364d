import { sql } from 'kysely';
import { optionNamed } from '../../shared/contracts/custom-fields.js';
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
  const options = field.options ?? [];
  // Gone is an old option no new one is, by the rule a written value names an option (optionNamed:
  // NFC, case and extra spaces ignored): "Gold  tier", kept before options were single-spaced and
  // sent back as "Gold tier", is not removed, and its records' values name the new spelling.
  if (options.every((option) => optionNamed(next, option) !== undefined)) return;
  const table = TABLES[field.object_type];
  // The field's values as stored, each once: a handful (a select's values are its options, in
  // the spellings written over time), matched in JavaScript by the same rule as every write.
  const stored = await db
    .selectFrom(table)
    .select([sql<string>`custom_fields ->> ${field.key}`.as('value'), sql<number>`count(*)::int`.as('records')])
    .where(sql<boolean>`custom_fields ->> ${field.key} is not null`)
    .groupBy(sql`1`)
    .execute();
  const held = new Map<string, number>();
  for (const { value, records } of stored) {
    const option = optionNamed(options, value);
    if (option === undefined || optionNamed(next, value) !== undefined) continue;
    held.set(option, (held.get(option) ?? 0) + records);
  }
  if (held.size === 0) return;
  const which = options
    .filter((option) => held.has(option))
    .map((option) => {
      const records = held.get(option) ?? 0;
      return `"${option}" (${records} ${records === 1 ? field.object_type : table})`;
    })
    .join(', ');
  // An archived field's values cannot be written, so its records change only once it is restored.
  const remedy = field.archived_at === null ? 'change those records first' : 'restore the field (archived: false) and change those records first: an archived field cannot be written';
  throw new ConflictError(
    `options replaces the whole list, and it leaves out ${which} still held by records. Keep ${held.size === 1 ? 'it' : 'them'} in the list, or ${remedy}.`,
    'options',
  );
}

import { sql } from 'kysely';
import type { CustomField, updateCustomField } from '../../shared/contracts/custom-fields.js';
import { jsonb } from '../../shared/db/sql.js';
import type { WorkspaceSql } from '../../shared/db/workspace-sql.js';
import { NotFoundError } from '../../shared/errors.js';
import type { EventRecorder } from '../runtime/events/event-recorder.js';
import type { OperationHandler } from '../runtime/worker-call.js';
import { checkOptions } from './create-custom-field.js';
import { toCustomFieldResource } from './custom-field-resource.js';
import { customFieldUnchanged, type CustomFieldChange } from './custom-field-unchanged.js';
import { refuseDesignPastLimit } from './design-size.js';
import { findCustomField } from './get-custom-field.js';
import { refuseRemovingOptionsInUse } from './removed-options-in-use.js';

/**
 * Label, options, required, archived; key and type never change (stored values keep
 * their meaning). Archiving keeps the first archive time.
 */
export async function changeCustomField(db: WorkspaceSql, events: EventRecorder, id: string, change: CustomFieldChange): Promise<CustomField> {
  const before = await findCustomField(db, id, { lock: true });
  if (customFieldUnchanged(before, change)) return toCustomFieldResource(before);
  if (change.options !== undefined) {
    checkOptions(before.type, change.options);
    await refuseRemovingOptionsInUse(db, before, change.options);
  }
  const row = await db
    .updateTable('custom_fields')
    .set({
      label: change.label,
      options: change.options === undefined ? undefined : jsonb(change.options),
      required: change.required,
      archived_at: change.archived === undefined ? undefined : change.archived ? sql<string>`coalesce(archived_at, now())` : null,
      updated_at: new Date(),
    })
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirst();
  if (!row) throw new NotFoundError('custom field', id, 'id');
  // New options, a longer label or a restored field can grow the design; archiving only shrinks it.
  // A change that does not grow it passes even past the limit, so a design over it can be trimmed.
  const grew = before.archived_at !== null || JSON.stringify([row.label, row.options]).length > JSON.stringify([before.label, before.options]).length;
  if (row.archived_at === null && grew) await refuseDesignPastLimit(db);
  const changed = toCustomFieldResource(row);
  const archived = before.archived_at === null && row.archived_at !== null;
  await events.record({ type: archived ? 'custom_field.archived' : 'custom_field.updated', object: changed, previous: toCustomFieldResource(before) });
  return changed;
}

export const updateCustomFieldHandler: OperationHandler<typeof updateCustomField> = async ({ input: { id, ...change }, db, events }) =>
  changeCustomField(db, events, id, change);

import type { createCustomField } from '../../shared/contracts/custom-fields.js';
import { jsonb, uniqueViolation } from '../../shared/db/sql.js';
import { ConflictError, ValidationError } from '../../shared/errors.js';
import { newId } from '../../shared/ids.js';
import type { OperationHandler } from '../runtime/worker-call.js';
import { toCustomFieldResource } from './custom-field-resource.js';
import { refuseDesignPastLimit } from './design-size.js';

const KEY_CONSTRAINT = 'custom_fields_workspace_object_key_key';

/** Select fields need their options; other types take none. */
export function checkOptions(type: string, options: string[] | undefined | null): void {
  if (type === 'select' && !options?.length) throw new ValidationError('options: a select field needs at least one option.', 'options');
  if (type !== 'select' && options) throw new ValidationError(`options: only select fields have options, not ${type} fields.`, 'options');
}

/** The key is taken: the field that has it is named, for it may be archived and so missing from the usual list. */
function keyTaken(input: { object_type: string; key: string }, holder?: { id: string; archived_at: string | null }): ConflictError {
  const which = holder ? `: ${holder.id}${holder.archived_at ? ', archived' : ''}` : ' (archived fields keep their key)';
  return new ConflictError(`A ${input.object_type} custom field with the key "${input.key}" already exists${which}.`, 'key', holder?.id);
}

export const createCustomFieldHandler: OperationHandler<typeof createCustomField> = async ({ input, db, events }) => {
  checkOptions(input.type, input.options);
  // Looked up first: after the insert's unique violation the transaction can read nothing more.
  const holder = await db.selectFrom('custom_fields').select(['id', 'archived_at']).where('object_type', '=', input.object_type).where('key', '=', input.key).executeTakeFirst();
  if (holder) throw keyTaken(input, holder);
  const now = new Date();
  try {
    const row = await db
      .insertInto('custom_fields')
      .values({
        id: newId('customField'),
        workspace_id: db.workspaceId,
        object_type: input.object_type,
        key: input.key,
        label: input.label,
        type: input.type,
        options: input.options ? jsonb(input.options) : null,
        required: input.required ?? false,
        archived_at: null,
        created_at: now,
        updated_at: now,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    await refuseDesignPastLimit(db);
    const created = toCustomFieldResource(row);
    await events.record({ type: 'custom_field.created', object: created });
    return created;
  } catch (error) {
    // A create of the same key that committed meanwhile.
    if (uniqueViolation(error) === KEY_CONSTRAINT) throw keyTaken(input);
    throw error;
  }
};

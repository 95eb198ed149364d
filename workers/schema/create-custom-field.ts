import type { createCustomField } from '../../shared/contracts/custom-fields.js';
import { jsonb, uniqueViolation } from '../../shared/db/sql.js';
import { ConflictError, ValidationError } from '../../shared/errors.js';
import { newId } from '../../shared/ids.js';
import type { OperationHandler } from '../runtime/worker-call.js';
import { toCustomFieldResource } from './custom-field-resource.js';

const KEY_CONSTRAINT = 'custom_fields_workspace_object_key_key';

/** Select fields need their options; other types take none. */
export function checkOptions(type: string, options: string[] | undefined | null): void {
  if (type === 'select' && !options?.length) throw new ValidationError('options: a select field needs at least one option.', 'options');
  if (type !== 'select' && options) throw new ValidationError(`options: only select fields have options, not ${type} fields.`, 'options');
}

export const createCustomFieldHandler: OperationHandler<typeof createCustomField> = async ({ input, db, events }) => {
  checkOptions(input.type, input.options);
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
    const created = toCustomFieldResource(row);
    await events.record({ type: 'custom_field.created', object: created });
    return created;
  } catch (error) {
    if (uniqueViolation(error) === KEY_CONSTRAINT) {
      throw new ConflictError(`A ${input.object_type} custom field with the key "${input.key}" already exists (archived fields keep their key).`, 'key');
    }
    throw error;
  }
};

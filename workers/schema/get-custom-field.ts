import type { getCustomField } from '../../shared/contracts/custom-fields.js';
import type { WorkspaceSql } from '../../shared/db/workspace-sql.js';
import { NotFoundError } from '../../shared/errors.js';
import type { OperationHandler } from '../runtime/worker-call.js';
import { toCustomFieldResource, type CustomFieldRow } from './custom-field-resource.js';

/** `lock`: held until the write commits, so its event's previous values are the real ones. */
export async function findCustomField(db: WorkspaceSql, id: string, options: { lock?: boolean } = {}): Promise<CustomFieldRow> {
  const row = await db
    .selectFrom('custom_fields')
    .selectAll()
    .where('id', '=', id)
    .$if(options.lock === true, (q) => q.forUpdate())
    .executeTakeFirst();
  if (!row) throw new NotFoundError('custom field', id, 'id');
  return row;
}

export const getCustomFieldHandler: OperationHandler<typeof getCustomField> = async ({ input, db }) => toCustomFieldResource(await findCustomField(db, input.id));

import type { getCustomField } from '../../shared/contracts/custom-fields.js';
import type { WorkspaceSql } from '../../shared/db/workspace-sql.js';
import { NotFoundError } from '../../shared/errors.js';
import type { OperationHandler } from '../runtime/worker-call.js';
import { toCustomFieldResource, type CustomFieldRow } from './custom-field-resource.js';

export async function findCustomField(db: WorkspaceSql, id: string): Promise<CustomFieldRow> {
  const row = await db.selectFrom('custom_fields').selectAll().where('id', '=', id).executeTakeFirst();
  if (!row) throw new NotFoundError('custom field', id, 'id');
  return row;
}

export const getCustomFieldHandler: OperationHandler<typeof getCustomField> = async ({ input, db }) => toCustomFieldResource(await findCustomField(db, input.id));

import type { getCustomField } from '../../shared/contracts/custom-fields.js';
import type { EntityManager } from '../../shared/db/orm.js';
import { sqlOf } from '../../shared/db/sql.js';
import { NotFoundError } from '../../shared/errors.js';
import type { OperationHandler } from '../runtime/worker-call.js';
import { toCustomFieldResource, type CustomFieldRow } from './custom-field-resource.js';

export async function findCustomField(em: EntityManager, workspaceId: string, id: string): Promise<CustomFieldRow> {
  const row = await sqlOf(em).selectFrom('custom_fields').selectAll().where('workspace_id', '=', workspaceId).where('id', '=', id).executeTakeFirst();
  if (!row) throw new NotFoundError('custom field', id, 'id');
  return row;
}

export const getCustomFieldHandler: OperationHandler<typeof getCustomField> = async ({ input, context, em }) =>
  toCustomFieldResource(await findCustomField(em, context.workspace_id, input.id));

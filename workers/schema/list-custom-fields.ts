import type { listCustomFields } from '../../shared/contracts/custom-fields.js';
import { decodeCursor, pageFrom, type CursorScope } from '../runtime/keyset-cursor.js';
import { afterPosition } from '../runtime/keyset-sql.js';
import type { OperationHandler } from '../runtime/worker-call.js';
import { toCustomFieldResource } from './custom-field-resource.js';

export const listCustomFieldsHandler: OperationHandler<typeof listCustomFields> = async ({ input, context, db, services }) => {
  const includeArchived = input.include_archived === true;
  const scope: CursorScope = {
    workspaceId: context.workspace_id,
    list: 'custom_fields',
    filters: { object_type: input.object_type, include_archived: includeArchived },
  };
  const after = input.cursor ? decodeCursor(services.secrets.cursorKey, scope, input.cursor) : undefined;
  const rows = await db
    .selectFrom('custom_fields')
    .selectAll()
    .$if(input.object_type !== undefined, (q) => q.where('object_type', '=', input.object_type!))
    .$if(!includeArchived, (q) => q.where('archived_at', 'is', null))
    .$if(after !== undefined, (q) => q.where(afterPosition(after!)))
    .orderBy('created_at')
    .orderBy('id')
    .limit(input.limit + 1)
    .execute();
  return pageFrom(rows, input.limit, services.secrets.cursorKey, scope, toCustomFieldResource);
};

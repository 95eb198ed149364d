import type { listContacts } from '../../shared/contracts/contacts.js';
import { sqlOf } from '../../shared/db/sql.js';
import { activeFieldKeysSql } from '../schema/custom-field-definitions.js';
import { decodeCursor, pageFrom, type CursorScope } from '../runtime/keyset-cursor.js';
import { afterPosition } from '../runtime/keyset-sql.js';
import { ownerRestriction } from '../runtime/visibility.js';
import type { OperationHandler } from '../runtime/worker-call.js';
import { toContactResource } from './contact-resource.js';

/** One page of contacts in (created_at, id) order; the cursor continues after the last row. */
export const listContactsHandler: OperationHandler<typeof listContacts> = async ({ input, context, em, services }) => {
  const workspaceId = context.workspace_id;
  const scope: CursorScope = { workspaceId, list: 'contacts', filters: {} };
  const after = input.cursor ? decodeCursor(services.secrets.cursorKey, scope, input.cursor) : undefined;
  const owner = ownerRestriction(context);

  const rows = await sqlOf(em)
    .selectFrom('contacts')
    .selectAll()
    .select(activeFieldKeysSql(workspaceId, 'contact').as('field_keys'))
    .where('workspace_id', '=', workspaceId)
    .$if(owner !== null, (q) => q.where('owner_id', '=', owner))
    .$if(after !== undefined, (q) => q.where(afterPosition(after!)))
    .orderBy('created_at')
    .orderBy('id')
    .limit(input.limit + 1)
    .execute();

  const keys = rows[0]?.field_keys ?? [];
  return pageFrom(rows, input.limit, services.secrets.cursorKey, scope, (row) => toContactResource(row, keys));
};

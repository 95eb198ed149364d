import type { listContacts } from '../../shared/contracts/contacts.js';
import { activeFieldKeysSql } from '../schema/custom-field-definitions.js';
import { decodeCursor, pageFrom, type CursorScope } from '../runtime/keyset-cursor.js';
import { afterPosition } from '../runtime/keyset-sql.js';
import { ownerRestriction } from '../runtime/visibility.js';
import type { OperationHandler } from '../runtime/worker-call.js';
import { applicableContactFilters, whereContactFilters } from './contact-filters.js';
import { toContactResource } from './contact-resource.js';
import { loadContactSetup } from './load-contact-setup.js';

/** One page of contacts in (created_at, id) order; the cursor continues the same filtered query. */
export const listContactsHandler: OperationHandler<typeof listContacts> = async ({ input, context, db, services }) => {
  const { limit, cursor, ...filters } = input;
  const workspaceId = context.workspace_id;
  // Only a phone filter needs the workspace's default country; spare the round trip otherwise.
  const defaultCountry = filters.phone === undefined ? null : (await loadContactSetup(db)).default_country;
  const applied = applicableContactFilters(filters, defaultCountry);
  const scope: CursorScope = { workspaceId, list: 'contacts', filters: { ...applied } };
  const after = cursor ? decodeCursor(services.secrets.cursorKey, scope, cursor) : undefined;
  const owner = ownerRestriction(context);

  const query = db
    .selectFrom('contacts')
    .selectAll()
    .select(activeFieldKeysSql(db, 'contact').as('field_keys'))
    .$if(owner !== null, (q) => q.where('owner_id', '=', owner))
    .$if(after !== undefined, (q) => q.where(afterPosition(after!)));
  const rows = await whereContactFilters(query, applied).orderBy('created_at').orderBy('id').limit(limit + 1).execute();

  const keys = rows[0]?.field_keys ?? [];
  return pageFrom(rows, limit, services.secrets.cursorKey, scope, (row) => toContactResource(row, keys));
};

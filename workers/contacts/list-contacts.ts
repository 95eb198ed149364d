import type { listContacts } from '../../shared/contracts/contacts.js';
import { resolveCreatedRange } from '../runtime/created-range.js';
import { decodeCursor, pageFrom, type CursorScope } from '../runtime/keyset-cursor.js';
import { afterPosition, beforePosition } from '../runtime/keyset-sql.js';
import { withListSettings } from '../runtime/list-settings.js';
import { ownerRestriction } from '../runtime/visibility.js';
import type { OperationHandler } from '../runtime/worker-call.js';
import { applicableContactFilters, whereContactFilters } from './contact-filters.js';
import { CONTACT_COLUMNS, toContactResource } from './contact-resource.js';
import { searchPage } from './search-page.js';

/** One page of contacts in (created_at, id) order, or its reverse; the cursor continues the same filtered query. */
export const listContactsHandler: OperationHandler<typeof listContacts> = async ({ input, context, db, services }) =>
  withListSettings(db, 'contact', async (settings, current) => {
    const { limit, cursor, sort, ...filters } = input;
    const workspaceId = context.workspace_id;
    const range = resolveCreatedRange(filters, settings.time_zone, new Date());
    const applied = applicableContactFilters(filters, range, settings.default_country);
    const newestFirst = sort === 'newest_first';
    // The order is part of the query a cursor continues (the default adds nothing, so older cursors still work).
    const scope: CursorScope = { workspaceId, list: 'contacts', filters: { ...applied, sort: newestFirst ? 'newest_first' : undefined } };
    const after = cursor ? decodeCursor(services.secrets.cursorKey, scope, cursor) : undefined;
    const owner = ownerRestriction(context);
    const direction = newestFirst ? 'desc' : 'asc';

    const query = db
      .selectFrom('contacts')
      .select(CONTACT_COLUMNS)
      .where(current)
      .$if(owner !== null, (q) => q.where('owner_id', '=', owner))
      .$if(after !== undefined, (q) => q.where(newestFirst ? beforePosition(after!) : afterPosition(after!)));
    const filtered = whereContactFilters(query, applied);
    const rows = applied.q
      ? await searchPage(db, filtered, applied.q, direction, limit + 1, applied.q_national_phone)
      : await filtered.orderBy('created_at', direction).orderBy('id', direction).limit(limit + 1).execute();

    const page = pageFrom(rows, limit, services.secrets.cursorKey, scope, (row) => toContactResource(row, settings.field_keys));
    return { ...page, applied_range: { ...range, time_zone: settings.time_zone } };
  });

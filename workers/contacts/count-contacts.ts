import { sql } from 'kysely';
import type { countContacts } from '../../shared/contracts/contacts.js';
import { PLANNED_PER_VALUE } from '../../shared/db/prepared-statement-client.js';
import { resolveCreatedRange } from '../runtime/created-range.js';
import { withListSettings } from '../runtime/list-settings.js';
import { ownerRestriction } from '../runtime/visibility.js';
import type { OperationHandler } from '../runtime/worker-call.js';
import { applicableContactFilters, matchesWords, whereContactFilters } from './contact-filters.js';

/** How many contacts match, with the same filters and visibility as the list, and the range it applied. */
export const countContactsHandler: OperationHandler<typeof countContacts> = async ({ input, context, db }) =>
  withListSettings(db, 'contact', async (settings, current) => {
    const range = resolveCreatedRange(input, settings.time_zone, new Date());
    const owner = ownerRestriction(context);
    const query = db
      .selectFrom('contacts')
      .select((eb) => eb.fn.countAll<string>().as('count'))
      .where(current)
      .$if(owner !== null, (q) => q.where('owner_id', '=', owner));
    const applied = applicableContactFilters(input, range, settings.default_country);
    const filtered = whereContactFilters(query, applied);
    // How many match decides the plan (the trigram index, or reading them all): planned for the words each time.
    const searched = applied.q ? filtered.where(matchesWords(applied.q, applied.q_national_phone)).modifyFront(sql.raw(PLANNED_PER_VALUE)) : filtered;
    const row = await searched.executeTakeFirstOrThrow();
    return { count: Number(row.count), applied_range: { ...range, time_zone: settings.time_zone } };
  });

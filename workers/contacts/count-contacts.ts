import type { countContacts } from '../../shared/contracts/contacts.js';
import { ownerRestriction } from '../runtime/visibility.js';
import type { OperationHandler } from '../runtime/worker-call.js';
import { applicableContactFilters, whereContactFilters } from './contact-filters.js';
import { loadContactSetup } from './load-contact-setup.js';

/** How many contacts match, with the same filters and visibility as the list. */
export const countContactsHandler: OperationHandler<typeof countContacts> = async ({ input, context, db }) => {
  const defaultCountry = input.phone === undefined ? null : (await loadContactSetup(db)).default_country;
  const owner = ownerRestriction(context);
  const query = db
    .selectFrom('contacts')
    .select((eb) => eb.fn.countAll<string>().as('count'))
    .$if(owner !== null, (q) => q.where('owner_id', '=', owner));
  const row = await whereContactFilters(query, applicableContactFilters(input, defaultCountry)).executeTakeFirstOrThrow();
  return { count: Number(row.count) };
};

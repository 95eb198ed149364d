import { ContactFilters, ContactSort, ContactStatus } from '../../../../shared/contracts/contacts.js';
import { createdRangeFilters } from '../../../../shared/contracts/created-range.js';

/** The contact filters that count_contacts and find_contacts share (query is the REST list's q). */
export const ContactFilterInput = {
  ...createdRangeFilters('contacts'),
  query: ContactFilters.shape.q,
  email: ContactFilters.shape.email,
  phone: ContactFilters.shape.phone,
  status: ContactStatus.optional(),
};

/** find_contacts' order (count_contacts has none): oldest_first by default, or newest_first. */
export const ContactSortInput = {
  sort: ContactSort.optional(),
};

import { ContactFilters } from '../../../../shared/contracts/contacts.js';
import { createdRangeFilters } from '../../../../shared/contracts/created-range.js';

/** The contact filters that count_contacts and find_contacts share (query is the REST list's q). */
export const ContactFilterInput = {
  ...createdRangeFilters('contacts'),
  query: ContactFilters.shape.q,
  email: ContactFilters.shape.email,
  phone: ContactFilters.shape.phone,
  status: ContactFilters.shape.status,
};

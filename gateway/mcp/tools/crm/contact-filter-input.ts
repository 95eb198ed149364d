import { ContactFilters } from '../../../../shared/contracts/contacts.js';
import { createdRangeFilters } from '../../../../shared/contracts/created-range.js';

/**
 * The exact e-mail filter, refusing what cannot be an address: a name or a part of an address
 * ("Ada Lovelace", "ada") matched nothing and was answered with no contacts, which an agent
 * reports as "no such contact"; words go in query.
 */
const ExactEmail = ContactFilters.shape.email.refine((email) => email === undefined || email.includes('@'), {
  message: 'is an exact e-mail address, and this has no @: to find contacts by words of a name or an address ("Ada Lovelace", "ada"), give them as query instead',
});

/** The contact filters that count_contacts and find_contacts share (query is the REST list's q). */
export const ContactFilterInput = {
  ...createdRangeFilters('contacts'),
  query: ContactFilters.shape.q,
  email: ExactEmail,
  phone: ContactFilters.shape.phone,
  status: ContactFilters.shape.status,
};

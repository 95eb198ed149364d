import { z } from 'zod';
import { TimestampQuery } from '../../../../shared/contracts/common.js';
import { ContactStatus } from '../../../../shared/contracts/contacts.js';

/** The contact filters that count_contacts and find_contacts share (query is the REST list's q). */
export const ContactFilterInput = {
  created_after: TimestampQuery.optional().describe('Only contacts created after this ISO 8601 instant'),
  created_before: TimestampQuery.optional().describe('Only contacts created before this ISO 8601 instant'),
  query: z.string().min(1).max(100).optional().describe('Prefix of a first name, last name, e-mail or phone'),
  status: ContactStatus.optional(),
};

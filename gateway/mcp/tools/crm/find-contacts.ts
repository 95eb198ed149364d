import { z } from 'zod';
import { Contact, listContacts } from '../../../../shared/contracts/contacts.js';
import { DEFAULT_PAGE_SIZE } from '../../../../shared/contracts/common.js';
import { AppliedRange } from '../../../../shared/contracts/created-range.js';
import { definePageTool } from '../../tool.js';
import { PageInfo, PagingInput, SortInput } from '../list-page.js';
import { ContactFilterInput } from './contact-filter-input.js';

export const findContactsTool = definePageTool({
  name: 'find_contacts',
  title: 'Find contacts',
  description:
    'Contacts, oldest first (or sort: newest_first), found by name or e-mail words ("Ada Lovelace", "lovelace"), an exact e-mail, a phone in any format, and/or the creation date (a day, an instant, or created_within such as last_week, in the workspace time zone). Follow next_cursor for more.',
  op: listContacts,
  input: { ...ContactFilterInput, ...SortInput, ...PagingInput },
  output: z.object({ contacts: z.array(Contact), ...PageInfo, applied_range: AppliedRange }),
  opInput: ({ query, limit, ...rest }) => ({ ...rest, q: query, limit: limit ?? DEFAULT_PAGE_SIZE }),
  rows: 'contacts',
});

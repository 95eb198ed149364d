import { z } from 'zod';
import { Contact, listContacts } from '../../../../shared/contracts/contacts.js';
import { DEFAULT_PAGE_SIZE } from '../../../../shared/contracts/common.js';
import { defineTool } from '../../tool.js';
import { PageInfo, PagingInput } from '../list-page.js';
import { ContactFilterInput } from './contact-filter-input.js';

export const findContactsTool = defineTool({
  name: 'find_contacts',
  title: 'Find contacts',
  description:
    'Contacts in creation order, filtered by creation date range and/or a name, e-mail or phone prefix. Follow next_cursor for more.',
  op: listContacts,
  input: { ...ContactFilterInput, ...PagingInput },
  output: z.object({ contacts: z.array(Contact), ...PageInfo }),
  opInput: ({ query, limit, ...rest }) => ({ ...rest, q: query, limit: limit ?? DEFAULT_PAGE_SIZE }),
  result: (page) => ({ contacts: page.data, has_more: page.has_more, next_cursor: page.next_cursor }),
});

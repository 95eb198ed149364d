import { countContacts } from '../../../../shared/contracts/contacts.js';
import { defineTool } from '../../tool.js';
import { ContactFilterInput } from './contact-filter-input.js';

export const countContactsTool = defineTool({
  name: 'count_contacts',
  title: 'Count contacts',
  description:
    'How many contacts the workspace has (that this connection may see), optionally only those matching the filters (the same as find_contacts), with the creation range it applied.',
  op: countContacts,
  input: ContactFilterInput,
  // The operation's own result: the count and the range it applied (clients check results against this schema).
  output: countContacts.output,
  opInput: ({ query, ...filters }) => ({ ...filters, q: query }),
});

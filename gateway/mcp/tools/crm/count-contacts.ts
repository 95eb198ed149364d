import { z } from 'zod';
import { countContacts } from '../../../../shared/contracts/contacts.js';
import { defineTool, READ_ONLY } from '../../tool.js';
import { ContactFilterInput } from './contact-filter-input.js';

export const countContactsTool = defineTool({
  name: 'count_contacts',
  title: 'Count contacts',
  description: 'How many contacts the workspace has (that this connection may see), optionally only those matching the filters.',
  scopes: ['contacts:read'],
  writes: false,
  annotations: READ_ONLY,
  input: ContactFilterInput,
  output: z.object({ count: z.number().int() }),
  run: async ({ query, ...filters }, call) => call.run(countContacts, { ...filters, q: query }),
});

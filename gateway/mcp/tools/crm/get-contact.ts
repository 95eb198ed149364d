import { z } from 'zod';
import { Contact, getContact } from '../../../../shared/contracts/contacts.js';
import { defineTool } from '../../tool.js';

export const getContactTool = defineTool({
  name: 'get_contact',
  title: 'Get a contact',
  description: 'One contact by id (con_…), with its custom fields.',
  op: getContact,
  input: { id: z.string().max(64).describe('con_…') },
  output: Contact,
});

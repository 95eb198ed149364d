import { Contact, getContact } from '../../../../shared/contracts/contacts.js';
import { defineTool } from '../../tool.js';
import { idArgument } from '../id-argument.js';

export const getContactTool = defineTool({
  name: 'get_contact',
  title: 'Get a contact',
  description: 'One contact by id (con_…), with its custom fields.',
  op: getContact,
  input: { id: idArgument('contact') },
  output: Contact,
});

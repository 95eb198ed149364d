import { z } from 'zod';
import { CreationSort, Cursor, PageLimitQuery } from '../../../../shared/contracts/common.js';
import { ContactFilters, CreateContactInput, UpdateContactFields } from '../../../../shared/contracts/contacts.js';
import { pathId } from '../../../api/path-id.js';

export const ContactIdParams = z.strictObject({ id: pathId('con_') });

export const ListContactsQuery = z.strictObject({
  limit: PageLimitQuery,
  cursor: Cursor.optional().describe('Taken from links.next'),
  sort: CreationSort.optional(),
  ...ContactFilters.shape,
});

export const CreateContactBody = CreateContactInput;
export const UpdateContactBody = UpdateContactFields;

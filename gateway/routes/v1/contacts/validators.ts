import { z } from 'zod';
import { Cursor, PageLimitQuery } from '../../../../shared/contracts/common.js';
import { CreateContactInput } from '../../../../shared/contracts/contacts.js';

export const ListContactsQuery = z.strictObject({
  limit: PageLimitQuery,
  cursor: Cursor.optional(),
});

export const CreateContactBody = CreateContactInput;

import { z } from 'zod';
import { defineOperation } from '../bus/operation.js';
import { cleanText, Cursor, PageLimit, pageOf, Timestamp } from './common.js';
import { CustomFieldValues } from './custom-field-values.js';

export const ContactStatus = z.enum(['active', 'archived']);

export const Contact = z
  .object({
    object: z.literal('contact'),
    id: z.string().describe('con_ followed by an opaque identifier'),
    first_name: z.string(),
    last_name: z.string().nullable(),
    email: z.string().nullable(),
    phone: z.string().describe('E.164, e.g. +14155550100'),
    status: ContactStatus,
    custom_fields: CustomFieldValues,
    owner_id: z.string().nullable(),
    created_at: Timestamp,
    updated_at: Timestamp,
  })
  .meta({ id: 'Contact' });
export type Contact = z.infer<typeof Contact>;

const Email = z
  .string()
  .trim()
  .max(254)
  .pipe(z.email({ message: 'must be an e-mail address' }))
  .transform((s) => s.toLowerCase());

/** The body of POST /v1/contacts, and the input of contacts.create. */
export const CreateContactInput = z.strictObject({
  first_name: cleanText(100).pipe(z.string().min(1, 'is required and must not be empty')),
  last_name: cleanText(100).nullable().optional(),
  email: Email.nullable().optional(),
  phone: cleanText(40)
    .pipe(z.string().min(1, 'is required'))
    .describe('Any common format; stored as E.164. Without a country code the workspace default_country applies.'),
  status: ContactStatus.optional(),
  custom_fields: CustomFieldValues.optional(),
  owner_id: z.string().max(64).nullable().optional(),
});
export type CreateContactInput = z.infer<typeof CreateContactInput>;

export const ListContactsInput = z.strictObject({
  limit: PageLimit,
  cursor: Cursor.optional(),
});

export const createContact = defineOperation({
  worker: 'contacts',
  name: 'create',
  scope: 'contacts:write',
  idempotent: true,
  input: CreateContactInput,
  output: Contact,
});

export const listContacts = defineOperation({
  worker: 'contacts',
  name: 'list',
  scope: 'contacts:read',
  input: ListContactsInput,
  output: pageOf(Contact),
});

import { z } from 'zod';
import { defineOperation } from '../bus/operation.js';
import { cleanText, CreationSort, shownText, Cursor, OwnerIdInput, PageLimit, pageOf, Timestamp, userWritten, SearchWords, VISIBLE, withoutBidiControls, BIDI_CONTROLS_MESSAGE } from './common.js';
import { AppliedRange, createdRangeFilters } from './created-range.js';
import { CustomFieldValues } from './custom-field-values.js';
import { EmailAddress } from './email-address.js';
import { ExpectedVersions } from './entity-tags.js';
import { expectedValuesOf } from './expected-values.js';

export const ContactStatus = z.enum(['active', 'archived']);

export const Contact = z
  .object({
    object: z.literal('contact'),
    id: z.string().describe('con_ followed by an opaque identifier'),
    first_name: z.string().describe(userWritten('First name')),
    last_name: z.string().nullable().describe(userWritten('Last name')),
    email: z.string().nullable().describe(userWritten('E-mail address')),
    phone: z.string().describe('E.164, e.g. +14155550100'),
    status: ContactStatus,
    custom_fields: CustomFieldValues.describe(userWritten('Every active contact custom field of the workspace, null where unset')),
    owner_id: z.string().nullable().describe('The workspace member (usr_…) who owns the contact'),
    created_at: Timestamp,
    updated_at: Timestamp,
  })
  .meta({ id: 'Contact' });
export type Contact = z.infer<typeof Contact>;

const Email = z
  .string()
  .trim()
  .max(254, 'must be at most 254 characters, the longest an e-mail address can be')
  // A blank is refused (it may be a slip), with the way to clear the address on purpose.
  .pipe(z.string().min(1, 'is blank: send null to clear the e-mail address').pipe(EmailAddress));

const FirstName = shownText(100);
/** Blank, or only invisible characters: no last name, stored as null rather than as "" (so PATCH "" clears it). */
const LastName = cleanText(100)
  .refine(withoutBidiControls, { message: BIDI_CONTROLS_MESSAGE })
  .transform((s) => (VISIBLE.test(s) ? s : null));
const Phone = cleanText(40)
  .pipe(z.string().min(1, 'is required'))
  .describe('Any common format; stored as E.164. Without a country code the workspace default_country applies.');

/** The body of POST /v1/contacts, and (with {@link CreateContactOperationInput}'s one more field) the input of contacts.create. */
export const CreateContactInput = z
  .strictObject({
    first_name: FirstName.describe('The first (given) name as the person writes it, e.g. Ada; at most 100 characters'),
    last_name: LastName.nullable().optional().describe('The last (family) name, e.g. Lovelace; at most 100 characters. Empty text clears it, as null does'),
    email: Email.nullable().optional().describe('One e-mail address, e.g. ada@example.com; null: none (on update, clears it)'),
    phone: Phone,
    status: ContactStatus.optional().describe('Default on create: active'),
    custom_fields: CustomFieldValues.optional().describe('Values checked against the custom field definitions; null clears'),
    owner_id: OwnerIdInput.create.optional(),
  })
  .meta({ id: 'CreateContact' });
export type CreateContactInput = z.infer<typeof CreateContactInput>;

/** The body of PATCH /v1/contacts/{id}: only the fields given change; custom_fields merge key by key. */
export const UpdateContactFields = CreateContactInput.partial()
  .extend({ status: ContactStatus.optional().describe('active or archived (an archived contact stays readable)'), owner_id: OwnerIdInput.update.optional() })
  .meta({ id: 'UpdateContact' });

/** Filters of the contact list and count; each one also travels in links.next. */
export const ContactFilters = z.object({
  ...createdRangeFilters('contacts'),
  status: ContactStatus.optional().describe('Only active or only archived contacts; without it, both'),
  email: z.string().trim().min(1).max(254).optional().describe('Exact e-mail address (case does not matter)'),
  phone: z
    .string()
    .trim()
    .min(1)
    .max(40)
    .optional()
    .describe('A phone in any format; normalised to E.164 like on create (without a country code, in the workspace default_country)'),
  q: SearchWords.optional().describe(
      'Words to find, e.g. "Ada Lovelace", "love" or "ada.lovelace@": every word must begin a word of the first name, last name or e-mail (the whole address or a part of it), case and accents ignored. Digits alone (e.g. 1415555) also match the start of the phone after +, and a number without a country code (e.g. (415) 555) the start of the phone it means in the workspace default_country',
    ),
});
export type ContactFilters = z.infer<typeof ContactFilters>;

export const ListContactsInput = z.strictObject({
  limit: PageLimit,
  cursor: Cursor.optional(),
  sort: CreationSort.optional(),
  ...ContactFilters.shape,
});

const ById = z.strictObject({ id: z.string().max(64) });

/**
 * contacts.create's input: the REST body, and `unique_email`, which only create_contact sends
 * (REST, the console and the import never do: e-mail addresses are not unique, phones are).
 * With it, an e-mail address another contact of the workspace has is refused (a conflict),
 * so an agent does not make a second contact of someone who exists.
 */
const CreateContactOperationInput = CreateContactInput.extend({
  unique_email: z.literal(true).optional().describe('Refuse an e-mail address another contact of the workspace has (create_contact only)'),
});

export const createContact = defineOperation({
  worker: 'contacts',
  resource: 'contacts',
  verb: 'create',
  scope: 'contacts:write',
  idempotent: true,
  input: CreateContactOperationInput,
  output: Contact,
});

export const listContacts = defineOperation({
  worker: 'contacts',
  resource: 'contacts',
  verb: 'list',
  readOnly: true,
  scope: 'contacts:read',
  input: ListContactsInput,
  output: pageOf(Contact).extend({ applied_range: AppliedRange }),
});

export const getContact = defineOperation({ worker: 'contacts', resource: 'contacts', verb: 'get', readOnly: true, scope: 'contacts:read', input: ById, output: Contact });

export const updateContact = defineOperation({
  worker: 'contacts',
  resource: 'contacts',
  verb: 'update',
  destructive: true,
  scope: 'contacts:write',
  idempotent: true,
  input: UpdateContactFields.extend({
    id: z.string().max(64),
    expected_versions: ExpectedVersions,
    expected_values: expectedValuesOf(Contact.pick({ first_name: true, last_name: true, email: true, phone: true, status: true, owner_id: true, custom_fields: true })),
  }),
  output: Contact,
});

/** DELETE archives: the contact stays readable with status archived. */
export const archiveContact = defineOperation({
  worker: 'contacts',
  resource: 'contacts',
  verb: 'archive',
  scope: 'contacts:write',
  destructive: true,
  input: ById.extend({ expected_versions: ExpectedVersions }),
  output: Contact,
});

export const countContacts = defineOperation({
  worker: 'contacts',
  resource: 'contacts',
  verb: 'count',
  readOnly: true,
  scope: 'contacts:read',
  input: ContactFilters.strict(),
  output: z.object({ count: z.number().int(), applied_range: AppliedRange }),
});

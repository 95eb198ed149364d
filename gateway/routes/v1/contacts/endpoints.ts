import { AppliedRange } from '../../../../shared/contracts/created-range.js';
import { archiveContact, Contact, createContact, getContact, listContacts, updateContact } from '../../../../shared/contracts/contacts.js';
import { defineEndpoint } from '../../../api/endpoint.js';
import { listOf } from '../../../api/list-envelope.js';
import { ContactIdParams, CreateContactBody, ListContactsQuery, UpdateContactBody } from './validators.js';

const tag = 'Contacts';

export const listContactsEndpoint = defineEndpoint({
  method: 'get',
  path: '/v1/contacts',
  operationId: 'listContacts',
  summary: 'List contacts',
  description:
    'Contacts in creation order (created_at, then id; sort=newest_first reverses it). Follow links.next to read every contact committed before the walk reached it, none twice (a write committing during the walk can be passed: docs/api.md); filters combine with AND and travel in links.next. Days (YYYY-MM-DD) and created_within are read in the workspace time zone; applied_range says which instants the creation-date filters selected.',
  tag,
  op: listContacts,
  query: ListContactsQuery,
  response: listOf(Contact, 'ContactList', { applied_range: AppliedRange }),
  status: 200,
  errors: ['invalid_cursor'],
});

export const createContactEndpoint = defineEndpoint({
  method: 'post',
  path: '/v1/contacts',
  operationId: 'createContact',
  summary: 'Create a contact',
  description: 'The phone is stored as E.164 and is unique in the workspace.',
  tag,
  op: createContact,
  body: CreateContactBody,
  status: 201,
  errors: ['not_found', 'forbidden', 'phone_taken', 'idempotency_key_reused'],
  location: (contact) => `/v1/contacts/${contact.id}`,
});

export const getContactEndpoint = defineEndpoint({
  method: 'get',
  path: '/v1/contacts/{id}',
  operationId: 'getContact',
  summary: 'Retrieve a contact',
  description: 'Archived contacts are still readable.',
  tag,
  op: getContact,
  versioned: 'tagged',
  params: ContactIdParams,
  status: 200,
  errors: ['not_found'],
});

export const updateContactEndpoint = defineEndpoint({
  method: 'patch',
  path: '/v1/contacts/{id}',
  operationId: 'updateContact',
  summary: 'Update a contact',
  description: 'Only the fields given change. A new phone is normalised and must stay unique; custom_fields merge key by key (null clears).',
  tag,
  op: updateContact,
  versioned: 'tagged',
  params: ContactIdParams,
  body: UpdateContactBody,
  status: 200,
  errors: ['not_found', 'forbidden', 'phone_taken', 'idempotency_key_reused'],
});

export const archiveContactEndpoint = defineEndpoint({
  method: 'delete',
  path: '/v1/contacts/{id}',
  operationId: 'archiveContact',
  summary: 'Archive a contact',
  description: 'Sets status to archived. The contact stays readable and can be made active again with PATCH.',
  tag,
  op: archiveContact,
  // The answer is the archived contact, at its new version.
  versioned: 'tagged',
  params: ContactIdParams,
  status: 200,
  errors: ['not_found'],
});

export const contactEndpoints = [listContactsEndpoint, createContactEndpoint, getContactEndpoint, updateContactEndpoint, archiveContactEndpoint];

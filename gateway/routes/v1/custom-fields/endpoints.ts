import {
  archiveCustomField,
  createCustomField,
  CustomField,
  getCustomField,
  listCustomFields,
  updateCustomField,
} from '../../../../shared/contracts/custom-fields.js';
import { defineEndpoint } from '../../../api/endpoint.js';
import { listOf } from '../../../api/list-envelope.js';
import { CreateCustomFieldBody, CustomFieldIdParams, ListCustomFieldsQuery, UpdateCustomFieldBody } from './validators.js';

const tag = 'Custom fields';

export const listCustomFieldsEndpoint = defineEndpoint({
  method: 'get',
  path: '/v1/custom-fields',
  operationId: 'listCustomFields',
  summary: 'List custom field definitions',
  tag,
  op: listCustomFields,
  query: ListCustomFieldsQuery,
  response: listOf(CustomField, 'CustomFieldList'),
  status: 200,
  errors: ['invalid_cursor'],
});

export const createCustomFieldEndpoint = defineEndpoint({
  method: 'post',
  path: '/v1/custom-fields',
  operationId: 'createCustomField',
  summary: 'Define a custom field',
  description: 'For contacts or deals. The key is unique per object type; select fields list their options.',
  tag,
  op: createCustomField,
  body: CreateCustomFieldBody,
  status: 201,
  errors: ['conflict', 'idempotency_key_reused'],
  location: (field) => `/v1/custom-fields/${field.id}`,
});

export const getCustomFieldEndpoint = defineEndpoint({
  method: 'get',
  path: '/v1/custom-fields/{id}',
  operationId: 'getCustomField',
  summary: 'Retrieve a custom field definition',
  tag,
  op: getCustomField,
  params: CustomFieldIdParams,
  status: 200,
  errors: ['not_found'],
});

export const updateCustomFieldEndpoint = defineEndpoint({
  method: 'patch',
  path: '/v1/custom-fields/{id}',
  operationId: 'updateCustomField',
  summary: 'Update a custom field definition',
  description:
    'Label, options (select fields), required, or archived. The key and type never change. options replaces the whole list; leaving out an option that records still hold is a 409 naming it.',
  tag,
  op: updateCustomField,
  params: CustomFieldIdParams,
  body: UpdateCustomFieldBody,
  status: 200,
  errors: ['not_found', 'conflict'],
});

export const archiveCustomFieldEndpoint = defineEndpoint({
  method: 'delete',
  path: '/v1/custom-fields/{id}',
  operationId: 'archiveCustomField',
  summary: 'Archive a custom field',
  description: 'Hides the field from records and refuses new values; stored values are kept and come back if it is restored.',
  tag,
  op: archiveCustomField,
  params: CustomFieldIdParams,
  status: 200,
  errors: ['not_found'],
});

export const customFieldEndpoints = [
  listCustomFieldsEndpoint,
  createCustomFieldEndpoint,
  getCustomFieldEndpoint,
  updateCustomFieldEndpoint,
  archiveCustomFieldEndpoint,
];

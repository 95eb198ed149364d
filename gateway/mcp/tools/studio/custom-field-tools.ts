import { z } from 'zod';
import {
  archiveCustomField,
  CreateCustomFieldInput,
  createCustomField,
  CustomField,
  CustomFieldObjectType,
  listCustomFields,
  UpdateCustomFieldFields,
  updateCustomField,
} from '../../../../shared/contracts/custom-fields.js';
import { MAX_PAGE_SIZE } from '../../../../shared/contracts/common.js';
import { CHANGES, CREATES, defineTool, READ_ONLY } from '../../tool.js';
import { PageInfo } from '../list-page.js';

export const listCustomFieldsTool = defineTool({
  name: 'list_custom_fields',
  title: 'List custom fields',
  description: 'The custom field definitions of contacts and/or deals: key, label, type, options, required, archived.',
  scopes: ['studio:read'],
  writes: false,
  annotations: READ_ONLY,
  input: {
    object_type: CustomFieldObjectType.optional(),
    include_archived: z.boolean().optional(),
    cursor: z.string().max(1024).optional(),
  },
  output: z.object({ custom_fields: z.array(CustomField), ...PageInfo }),
  run: async (args, call) => {
    const page = await call.run(listCustomFields, { ...args, limit: MAX_PAGE_SIZE });
    return { custom_fields: page.data, has_more: page.has_more, next_cursor: page.next_cursor };
  },
});

export const createCustomFieldTool = defineTool({
  name: 'create_custom_field',
  title: 'Create a custom field',
  description: 'Defines a custom field on contacts or deals. Types: text, number, boolean, date (YYYY-MM-DD), select (give its options).',
  scopes: ['studio:write'],
  writes: true,
  annotations: CREATES,
  input: CreateCustomFieldInput.shape,
  output: CustomField,
  run: async (args, call) => call.run(createCustomField, args),
});

export const updateCustomFieldTool = defineTool({
  name: 'update_custom_field',
  title: 'Update a custom field',
  description: 'Changes the label, the options of a select field, whether it is required, or restores an archived field (archived: false). Key and type never change.',
  scopes: ['studio:write'],
  writes: true,
  annotations: CHANGES,
  input: { id: z.string().max(64).describe('fld_…'), ...UpdateCustomFieldFields.shape },
  output: CustomField,
  run: async (args, call) => call.run(updateCustomField, args),
});

export const archiveCustomFieldTool = defineTool({
  name: 'archive_custom_field',
  title: 'Archive a custom field',
  description: 'Hides a custom field from records and stops new values; stored values are kept and return if the field is restored.',
  scopes: ['studio:write'],
  writes: true,
  annotations: CHANGES,
  input: { id: z.string().max(64).describe('fld_…') },
  output: CustomField,
  run: async (args, call) => call.run(archiveCustomField, args),
});

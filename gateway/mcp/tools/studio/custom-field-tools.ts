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
import { defineTool } from '../../tool.js';
import { idArgument } from '../id-argument.js';
import { PageInfo, PagingInput } from '../list-page.js';

/**
 * The contract's arguments as an agent reads them: each one described, so that a model does
 * not put a label where the key goes, or guess what an omitted flag means. Validation stays
 * the contract's.
 */
const ObjectTypeArgument = CustomFieldObjectType.describe('Which records carry the field: contact or deal');
const KeyArgument = CreateCustomFieldInput.shape.key.describe(
  'The name values are stored under in custom_fields: lower snake case, starting with a letter (e.g. lead_source); it never changes. Not the label people see',
);
const FieldId = idArgument('customField');
const LABEL = 'The name people see, e.g. "Lead source"; trimmed, runs of spaces kept as one';
const KEY_AND_TYPE_STAY =
  "A field's key and type never change, so that stored values keep their meaning: nothing was changed. For another key or type, ask the user, then create a new field with create_custom_field (archive_custom_field hides this one).";
const REQUIRED = 'true: records created from then on must have a value, and no value can be cleared';

export const listCustomFieldsTool = defineTool({
  name: 'list_custom_fields',
  title: 'List custom fields',
  description: 'The custom field definitions of contacts and/or deals: key, label, type, options, required, archived.',
  op: listCustomFields,
  input: {
    object_type: ObjectTypeArgument.optional().describe('Only the fields of contacts, or of deals; both when omitted'),
    include_archived: z.boolean().optional().describe('true: archived fields too (default false)'),
    cursor: PagingInput.cursor,
  },
  output: z.object({ custom_fields: z.array(CustomField), ...PageInfo }),
  opInput: (args) => ({ ...args, limit: MAX_PAGE_SIZE }),
  result: (page) => ({ custom_fields: page.data, has_more: page.has_more, next_cursor: page.next_cursor }),
});

export const createCustomFieldTool = defineTool({
  name: 'create_custom_field',
  title: 'Create a custom field',
  description: 'Defines a custom field on contacts or deals. Types: text, number, boolean, date (YYYY-MM-DD), select (give its options).',
  op: createCustomField,
  input: {
    ...CreateCustomFieldInput.shape,
    object_type: ObjectTypeArgument,
    key: KeyArgument,
    label: CreateCustomFieldInput.shape.label.describe(LABEL),
    type: CreateCustomFieldInput.shape.type.describe('What values it holds; it never changes. A select value is one of its options; a date is YYYY-MM-DD'),
    required: CreateCustomFieldInput.shape.required.describe(`${REQUIRED}. Default false`),
  },
  output: CustomField,
});

export const updateCustomFieldTool = defineTool({
  name: 'update_custom_field',
  title: 'Update a custom field',
  description:
    'Changes the label, the options of a select field (the list given replaces the whole list: to add one, send the current options plus the new one), whether it is required, or restores an archived field (archived: false). Key and type never change.',
  op: updateCustomField,
  input: {
    id: FieldId,
    ...UpdateCustomFieldFields.shape,
    label: UpdateCustomFieldFields.shape.label.describe(LABEL),
    required: UpdateCustomFieldFields.shape.required.describe(REQUIRED),
  },
  output: CustomField,
  identifiedBy: ['id'],
  notTaken: {
    key: KEY_AND_TYPE_STAY,
    type: KEY_AND_TYPE_STAY,
  },
});

export const archiveCustomFieldTool = defineTool({
  name: 'archive_custom_field',
  title: 'Archive a custom field',
  description:
    'Hides a custom field from records and stops new values; stored values are kept and return if the field is restored with update_custom_field (archived: false).',
  op: archiveCustomField,
  input: { id: FieldId },
  output: CustomField,
});

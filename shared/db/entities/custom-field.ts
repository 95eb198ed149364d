import { defineEntity, p } from '@mikro-orm/core';
import { Workspace } from './workspace.js';

export type CustomFieldType = 'text' | 'number' | 'boolean' | 'date' | 'select';
export type CustomFieldObject = 'contact' | 'deal';

export const CustomFieldSchema = defineEntity({
  name: 'CustomField',
  tableName: 'custom_fields',
  properties: {
    id: p.string().primary(),
    workspaceId: () => p.manyToOne(Workspace).mapToPk().fieldName('workspace_id'),
    objectType: p.string().$type<CustomFieldObject>(),
    key: p.string(),
    label: p.string(),
    type: p.string().$type<CustomFieldType>(),
    /** The allowed values of a `select` field; null for other types. */
    options: p.json<string[]>().nullable(),
    required: p.boolean(),
    archivedAt: p.datetime(3).nullable(),
    createdAt: p.datetime(3),
    updatedAt: p.datetime(3),
  },
});

export class CustomField extends CustomFieldSchema.class {}
CustomFieldSchema.setClass(CustomField);

import { defineEntity, p } from '@mikro-orm/core';
import { User } from './user.js';
import { Workspace } from './workspace.js';
import type { CustomFieldValues } from '../../contracts/custom-field-values.js';

export const ContactSchema = defineEntity({
  name: 'Contact',
  tableName: 'contacts',
  properties: {
    id: p.string().primary(),
    workspaceId: () => p.manyToOne(Workspace).mapToPk().fieldName('workspace_id'),
    firstName: p.string(),
    lastName: p.string().nullable(),
    email: p.string().nullable(),
    /** E.164; unique per workspace (constraint contacts_workspace_phone_key). */
    phone: p.string(),
    status: p.string().$type<'active' | 'archived'>(),
    customFields: p.json<CustomFieldValues>(),
    ownerId: () => p.manyToOne(User).mapToPk().fieldName('owner_id').nullable(),
    createdAt: p.datetime(3),
    updatedAt: p.datetime(3),
  },
});

export class Contact extends ContactSchema.class {}
ContactSchema.setClass(Contact);

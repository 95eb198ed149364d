import { defineEntity, p } from '@mikro-orm/core';
import { Contact } from './contact.js';
import { Pipeline } from './pipeline.js';
import { Stage } from './stage.js';
import { User } from './user.js';
import { Workspace } from './workspace.js';
import type { CustomFieldValues } from '../../contracts/custom-field-values.js';

export const DealSchema = defineEntity({
  name: 'Deal',
  tableName: 'deals',
  properties: {
    id: p.string().primary(),
    workspaceId: () => p.manyToOne(Workspace).mapToPk().fieldName('workspace_id'),
    name: p.string(),
    pipelineId: () => p.manyToOne(Pipeline).mapToPk().fieldName('pipeline_id'),
    stageId: () => p.manyToOne(Stage).mapToPk().fieldName('stage_id'),
    /** Integer minor units (cents); bigint in the database, a safe JS number here. */
    amount: p.bigint('number').nullable(),
    currency: p.string().nullable(),
    contactId: () => p.manyToOne(Contact).mapToPk().fieldName('contact_id').nullable(),
    ownerId: () => p.manyToOne(User).mapToPk().fieldName('owner_id').nullable(),
    customFields: p.json<CustomFieldValues>(),
    closedAt: p.datetime(3).nullable(),
    createdAt: p.datetime(3),
    updatedAt: p.datetime(3),
  },
});

export class Deal extends DealSchema.class {}
DealSchema.setClass(Deal);

import { defineEntity, p } from '@mikro-orm/core';
import { Workspace } from './workspace.js';

export const PipelineSchema = defineEntity({
  name: 'Pipeline',
  tableName: 'pipelines',
  properties: {
    id: p.string().primary(),
    workspaceId: () => p.manyToOne(Workspace).mapToPk().fieldName('workspace_id'),
    name: p.string(),
    isDefault: p.boolean(),
    archivedAt: p.datetime(3).nullable(),
    createdAt: p.datetime(3),
    updatedAt: p.datetime(3),
  },
});

export class Pipeline extends PipelineSchema.class {}
PipelineSchema.setClass(Pipeline);

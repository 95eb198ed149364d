import { defineEntity, p } from '@mikro-orm/core';
import { Pipeline } from './pipeline.js';
import { Workspace } from './workspace.js';

export const StageSchema = defineEntity({
  name: 'Stage',
  tableName: 'stages',
  properties: {
    id: p.string().primary(),
    workspaceId: () => p.manyToOne(Workspace).mapToPk().fieldName('workspace_id'),
    pipelineId: () => p.manyToOne(Pipeline).mapToPk().fieldName('pipeline_id'),
    name: p.string(),
    /** Order within the pipeline, from 0. */
    position: p.integer(),
    archivedAt: p.datetime(3).nullable(),
    createdAt: p.datetime(3),
    updatedAt: p.datetime(3),
  },
});

export class Stage extends StageSchema.class {}
StageSchema.setClass(Stage);

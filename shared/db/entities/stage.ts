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
    /** Order among the active stages of the pipeline, from 0; null once archived. */
    position: p.integer().nullable(),
    archivedAt: p.datetime(3).nullable(),
    createdAt: p.datetime(3),
    updatedAt: p.datetime(3),
  },
});

export class Stage extends StageSchema.class {}
StageSchema.setClass(Stage);

import { Pipeline, Stage } from '../../shared/db/entities/index.js';
import type { EntityManager } from '../../shared/db/orm.js';
import { newId } from '../../shared/ids.js';

export const DEFAULT_PIPELINE_NAME = 'Sales';
export const DEFAULT_STAGES = ['Lead', 'Qualified', 'Negotiation', 'Won', 'Lost'];

/** Every workspace starts with one pipeline, so deals have somewhere to go on day one. */
export function createDefaultPipeline(em: EntityManager, workspaceId: string): Pipeline {
  const now = new Date();
  const pipeline = em.create(Pipeline, {
    id: newId('pipeline'),
    workspaceId,
    name: DEFAULT_PIPELINE_NAME,
    isDefault: true,
    archivedAt: null,
    createdAt: now,
    updatedAt: now,
  });
  DEFAULT_STAGES.forEach((name, position) =>
    em.create(Stage, {
      id: newId('stage'),
      workspaceId,
      pipelineId: pipeline.id,
      name,
      position,
      archivedAt: null,
      createdAt: now,
      updatedAt: now,
    }),
  );
  return pipeline;
}

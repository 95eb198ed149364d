import { z } from 'zod';
import {
  archiveStage,
  CreatePipelineInput,
  createPipeline,
  CreateStageFields,
  createStage,
  listPipelines,
  Pipeline,
  UpdateStageFields,
  updateStage,
} from '../../../../shared/contracts/pipelines.js';
import { CHANGES, CREATES, defineTool, READ_ONLY } from '../../tool.js';

const PipelineId = z.string().max(64).describe('pipe_…');
const StageId = z.string().max(64).describe('stg_…');

export const listPipelinesTool = defineTool({
  name: 'list_pipelines',
  title: 'List pipelines',
  description: 'Every pipeline of the workspace (the default first) with its stages in order; archived stages come last.',
  scopes: ['studio:read'],
  writes: false,
  annotations: READ_ONLY,
  input: {},
  output: z.object({ pipelines: z.array(Pipeline) }),
  run: async (_args, call) => ({ pipelines: (await call.run(listPipelines, {})).data }),
});

export const createPipelineTool = defineTool({
  name: 'create_pipeline',
  title: 'Create a pipeline',
  description: 'Creates a pipeline with stage names in order (default Lead, Qualified, Negotiation, Won, Lost).',
  scopes: ['studio:write'],
  writes: true,
  annotations: CREATES,
  input: CreatePipelineInput.shape,
  output: Pipeline,
  run: async (args, call) => call.run(createPipeline, args),
});

export const createStageTool = defineTool({
  name: 'create_stage',
  title: 'Add a stage',
  description: 'Adds a stage to a pipeline at a position (default last). Stage names are unique within their pipeline.',
  scopes: ['studio:write'],
  writes: true,
  annotations: CREATES,
  input: { pipeline_id: PipelineId, ...CreateStageFields.shape },
  output: Pipeline,
  run: async (args, call) => call.run(createStage, args),
});

export const updateStageTool = defineTool({
  name: 'update_stage',
  title: 'Rename or reorder a stage',
  description: 'Renames a stage and/or moves it to a position; the stages in between shift by one.',
  scopes: ['studio:write'],
  writes: true,
  annotations: CHANGES,
  input: { pipeline_id: PipelineId, stage_id: StageId, ...UpdateStageFields.shape },
  output: Pipeline,
  run: async (args, call) => call.run(updateStage, args),
});

export const archiveStageTool = defineTool({
  name: 'archive_stage',
  title: 'Archive a stage',
  description: 'Archives a stage: deals in it stay, none can move in, and a pipeline keeps at least one active stage.',
  scopes: ['studio:write'],
  writes: true,
  annotations: CHANGES,
  input: { pipeline_id: PipelineId, stage_id: StageId },
  output: Pipeline,
  run: async (args, call) => call.run(archiveStage, args),
});

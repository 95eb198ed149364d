import { z } from 'zod';
import {
  archiveStage,
  CreatePipelineInput,
  createPipeline,
  CreateStageFields,
  createStage,
  getPipeline,
  listPipelines,
  MAX_ACTIVE_STAGES,
  Pipeline,
  PipelineWithStage,
  UpdatePipelineFields,
  updatePipeline,
  UpdateStageFields,
  updateStage,
} from '../../../../shared/contracts/pipelines.js';
import { defineTool } from '../../tool.js';
import { idArgument } from '../id-argument.js';

const PipelineId = idArgument('pipeline');
const StageId = idArgument('stage');
/** How a name is kept, said with each name argument: "Closed  Won" is stored, and refused beside, "Closed Won". */
const KEPT = 'trimmed, runs of spaces kept as one';
const PipelineName = CreatePipelineInput.shape.name.describe(`The pipeline's name, unique in the workspace (case ignored), e.g. "Partners"; ${KEPT}`);
const StageName = CreateStageFields.shape.name.describe(`The stage's name, unique within its pipeline (case ignored), e.g. "Negotiation"; ${KEPT}`);
/** A missing pipeline is named as the REST path names it (`/v1/pipelines/{id}/stages`); here it is pipeline_id. */
const PIPELINE_ID_PARAM = { id: 'pipeline_id' } as const;

export const listPipelinesTool = defineTool({
  name: 'list_pipelines',
  title: 'List pipelines',
  description: 'Every pipeline of the workspace (the default first) with its stages in order; archived stages come last.',
  op: listPipelines,
  input: {},
  output: z.object({ pipelines: z.array(Pipeline) }),
  result: ({ data }) => ({ pipelines: data }),
});

export const getPipelineTool = defineTool({
  name: 'get_pipeline',
  title: 'Get a pipeline',
  description: 'One pipeline by id (pipe_…) with its stages in order; archived stages come last.',
  op: getPipeline,
  input: { id: PipelineId },
  output: Pipeline,
});

export const createPipelineTool = defineTool({
  name: 'create_pipeline',
  title: 'Create a pipeline',
  description:
    'Creates a pipeline with stage names in order (default Lead, Qualified, Negotiation, Won, Lost). With is_default: true it also becomes the workspace default in place of the current one: ask the user first.',
  op: createPipeline,
  input: { ...CreatePipelineInput.shape, name: PipelineName },
  output: Pipeline,
  destructiveArguments: true,
});

export const updatePipelineTool = defineTool({
  name: 'update_pipeline',
  title: 'Rename a pipeline or make it the default',
  description:
    'Renames a pipeline and/or makes it the workspace default (is_default: true) in place of the current one: ask the user before switching the default. Its stages change with create_stage, update_stage and archive_stage.',
  op: updatePipeline,
  input: {
    id: PipelineId,
    name: UpdatePipelineFields.shape.name.describe(`The new name, unique in the workspace (case ignored), ${KEPT}; omit to keep it`),
    is_default: UpdatePipelineFields.shape.is_default,
  },
  output: Pipeline,
  identifiedBy: ['id'],
  notTaken: {
    stages:
      "A pipeline's stages change one at a time, not here: nothing was changed. create_stage adds one, update_stage renames one, moves it (position) or restores it (archived: false), archive_stage archives one.",
  },
});

export const createStageTool = defineTool({
  name: 'create_stage',
  title: 'Add a stage',
  description: `Adds a stage to a pipeline at a position (default last). Stage names are unique within their pipeline (case ignored); a pipeline has at most ${MAX_ACTIVE_STAGES} active stages. Returns the pipeline, and the new stage (its id) under stage.`,
  op: createStage,
  input: { pipeline_id: PipelineId, ...CreateStageFields.shape, name: StageName },
  output: PipelineWithStage,
  errorParams: PIPELINE_ID_PARAM,
});

export const updateStageTool = defineTool({
  name: 'update_stage',
  title: 'Rename, reorder or restore a stage',
  description:
    'Renames a stage and/or moves it to a position; the stages in between shift by one. archived: false restores an archived stage (last, or at position; under its name, or name), with the deals still in it; refused while an active stage of the pipeline has that name. Returns the pipeline in its new order, and the stage under stage.',
  op: updateStage,
  input: { pipeline_id: PipelineId, stage_id: StageId, ...UpdateStageFields.shape, name: UpdateStageFields.shape.name.describe(`The new name, unique within the pipeline (case ignored), ${KEPT}; omit to keep it`) },
  output: PipelineWithStage,
  errorParams: PIPELINE_ID_PARAM,
  identifiedBy: ['pipeline_id', 'stage_id'],
});

export const archiveStageTool = defineTool({
  name: 'archive_stage',
  title: 'Archive a stage',
  description:
    'Archives a stage: it leaves the order, deals in it stay, none can move in, a new stage may take its name, and a pipeline keeps at least one active stage. Confirm with the user first. update_stage with archived: false restores it. Returns the pipeline, and the archived stage under stage.',
  op: archiveStage,
  input: { pipeline_id: PipelineId, stage_id: StageId },
  output: PipelineWithStage,
  errorParams: PIPELINE_ID_PARAM,
});

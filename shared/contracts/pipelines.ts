import { z } from 'zod';
import { DESIGN_READ_SCOPES, DESIGN_WRITE_SCOPES } from '../auth/scopes.js';
import { defineOperation } from '../bus/operation.js';
import { refuseRepeatedNames, singleSpacedName, Timestamp, userWritten } from './common.js';

export const Stage = z
  .object({
    object: z.literal('stage'),
    id: z.string(),
    pipeline_id: z.string(),
    name: z.string().describe(userWritten("The stage's name")),
    position: z.number().int().describe('Order among the active stages of the pipeline, from 0; null when archived').nullable(),
    archived: z.boolean(),
    created_at: Timestamp,
    updated_at: Timestamp,
  })
  .meta({ id: 'Stage' });
export type Stage = z.infer<typeof Stage>;

export const Pipeline = z
  .object({
    object: z.literal('pipeline'),
    id: z.string(),
    name: z.string().describe(userWritten("The pipeline's name")),
    is_default: z.boolean().describe('New deals go here when no pipeline is named'),
    stages: z.array(Stage).describe('Active stages in order, then archived ones'),
    created_at: Timestamp,
    updated_at: Timestamp,
  })
  .meta({ id: 'Pipeline' });
export type Pipeline = z.infer<typeof Pipeline>;

/**
 * What a stage write answers: the whole pipeline, as it always did (the new order), and the
 * stage the call created, changed, restored or archived, so that a caller need not pick it out of
 * `stages` by name.
 */
export const PipelineWithStage = Pipeline.extend({
  stage: Stage.describe('The stage this call created, renamed, moved, restored or archived, as it is now (it is among stages too)'),
}).meta({ id: 'PipelineWithStage' });
export type PipelineWithStage = z.infer<typeof PipelineWithStage>;

/**
 * A pipeline's or stage's name: something that shows, as a label or an option must (a zero-width
 * space alone names nothing on a board), trimmed and single-spaced, so that "Closed  Won" is
 * stored as, and refused beside, "Closed Won".
 */
const Name = singleSpacedName(100).describe('Trimmed, each run of spaces kept as one; unique with case ignored (among the active pipelines, or the active stages of the pipeline)');

/** The most active stages a pipeline has: on create (its stage names) and when a stage is added. */
export const MAX_ACTIVE_STAGES = 50;

/** What a requested stage position means (stage-order.ts): counted from 0, and clamped to the end. */
const POSITIONS = '0 is first; a position beyond the last means last';

export const CreatePipelineInput = z
  .strictObject({
    name: Name,
    stages: z
      .array(Name)
      .min(1)
      .max(MAX_ACTIVE_STAGES)
      .superRefine(refuseRepeatedNames('stage names'))
      .optional()
      .describe('Stage names in order; default Lead, Qualified, Negotiation, Won, Lost'),
    is_default: z.boolean().optional().describe('true: the new pipeline becomes the default (the previous default stops being one)'),
  })
  .meta({ id: 'CreatePipeline' });

export const UpdatePipelineFields = z
  .strictObject({
    name: Name.optional(),
    is_default: z
      // A workspace always has a default: it moves by making another pipeline the default, never by unsetting one.
      .literal(true, { error: 'can only be true: to stop this pipeline being the default, make another one the default' })
      .optional()
      .describe('Make this the default pipeline (the previous default stops being one)'),
  })
  .meta({ id: 'UpdatePipeline' });

export const CreateStageFields = z
  .strictObject({
    name: Name,
    position: z.number().int().min(0).optional().describe(`Where to insert it among the active stages: ${POSITIONS}. Default last`),
  })
  .meta({ id: 'CreateStage' });

export const UpdateStageFields = z
  .strictObject({
    name: Name.optional(),
    position: z
      .number()
      .int()
      .min(0)
      .optional()
      .describe(`Move the stage here among the active stages: ${POSITIONS}. The others shift. With archived: false, where the restored stage goes (default last)`),
    archived: z
      // Archiving stays the archive operation's (DELETE, archive_stage), which keeps a pipeline's last active stage: here a stage is only brought back.
      .literal(false, { error: 'can only be false (restores an archived stage): to archive a stage, use its archive operation' })
      .optional()
      .describe(
        'false restores an archived stage, last among the active stages unless position is given, under its name unless name is given (refused while an active stage of the pipeline has that name); the deals still in it are on its board again and can move in and out as before. On an active stage it changes nothing',
      ),
  })
  .meta({ id: 'UpdateStage' });

const ById = z.strictObject({ id: z.string().max(64) });
const StageRef = z.strictObject({ pipeline_id: z.string().max(64), stage_id: z.string().max(64) });

export const listPipelines = defineOperation({
  worker: 'schema',
  resource: 'pipelines',
  verb: 'list',
  readOnly: true,
  scope: DESIGN_READ_SCOPES,
  input: z.strictObject({}),
  output: z.object({ data: z.array(Pipeline) }),
});

export const getPipeline = defineOperation({ worker: 'schema', resource: 'pipelines', verb: 'get', readOnly: true, scope: DESIGN_READ_SCOPES, input: ById, output: Pipeline });

export const createPipeline = defineOperation({
  worker: 'schema',
  resource: 'pipelines',
  verb: 'create',
  scope: DESIGN_WRITE_SCOPES,
  idempotent: true,
  input: CreatePipelineInput,
  output: Pipeline,
});

export const updatePipeline = defineOperation({
  worker: 'schema',
  resource: 'pipelines',
  verb: 'update',
  destructive: true,
  scope: DESIGN_WRITE_SCOPES,
  idempotent: true,
  input: UpdatePipelineFields.extend({ id: z.string().max(64) }),
  output: Pipeline,
});

export const createStage = defineOperation({
  worker: 'schema',
  resource: 'stages',
  verb: 'create',
  scope: DESIGN_WRITE_SCOPES,
  idempotent: true,
  input: CreateStageFields.extend({ pipeline_id: z.string().max(64) }),
  output: PipelineWithStage,
});

export const updateStage = defineOperation({
  worker: 'schema',
  resource: 'stages',
  verb: 'update',
  destructive: true,
  scope: DESIGN_WRITE_SCOPES,
  idempotent: true,
  input: UpdateStageFields.extend(StageRef.shape),
  output: PipelineWithStage,
});

export const archiveStage = defineOperation({ worker: 'schema', resource: 'stages', verb: 'archive', scope: DESIGN_WRITE_SCOPES, destructive: true, input: StageRef, output: PipelineWithStage });

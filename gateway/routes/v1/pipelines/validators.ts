import { z } from 'zod';
import { CreatePipelineInput, CreateStageFields, UpdatePipelineFields, UpdateStageFields } from '../../../../shared/contracts/pipelines.js';

export const PipelineIdParams = z.strictObject({ id: z.string().max(64).describe('pipe_…') });
export const StageParams = z.strictObject({ id: z.string().max(64).describe('pipe_…'), stage_id: z.string().max(64).describe('stg_…') });

export const CreatePipelineBody = CreatePipelineInput;
export const UpdatePipelineBody = UpdatePipelineFields;
export const CreateStageBody = CreateStageFields;
export const UpdateStageBody = UpdateStageFields;

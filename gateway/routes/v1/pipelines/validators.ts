import { z } from 'zod';
import { CreatePipelineInput, CreateStageFields, UpdatePipelineFields, UpdateStageFields } from '../../../../shared/contracts/pipelines.js';
import { pathId } from '../../../api/path-id.js';

export const PipelineIdParams = z.strictObject({ id: pathId('pipe_') });
export const StageParams = z.strictObject({ id: pathId('pipe_'), stage_id: pathId('stg_') });

export const CreatePipelineBody = CreatePipelineInput;
export const UpdatePipelineBody = UpdatePipelineFields;
export const CreateStageBody = CreateStageFields;
export const UpdateStageBody = UpdateStageFields;

import { archiveCustomField, createCustomField, getCustomField, listCustomFields, updateCustomField } from '../../shared/contracts/custom-fields.js';
import { archiveStage, createPipeline, createStage, getPipeline, listPipelines, updatePipeline, updateStage } from '../../shared/contracts/pipelines.js';
import { describeSchema } from '../../shared/contracts/schema.js';
import { getWorkspaceSettings, updateWorkspaceSettings } from '../../shared/contracts/workspace-settings.js';
import { handle, type WorkerDefinition } from '../runtime/worker-call.js';
import { describeSchemaHandler } from './describe-schema.js';
import { archiveCustomFieldHandler } from './archive-custom-field.js';
import { archiveStageHandler } from './archive-stage.js';
import { createCustomFieldHandler } from './create-custom-field.js';
import { createPipelineHandler } from './create-pipeline.js';
import { createStageHandler } from './create-stage.js';
import { getCustomFieldHandler } from './get-custom-field.js';
import { listCustomFieldsHandler } from './list-custom-fields.js';
import { getPipelineHandler, listPipelinesHandler } from './list-pipelines.js';
import { updateCustomFieldHandler } from './update-custom-field.js';
import { updatePipelineHandler } from './update-pipeline.js';
import { updateStageHandler } from './update-stage.js';
import { getWorkspaceSettingsHandler, updateWorkspaceSettingsHandler } from './workspace-settings.js';

/** The workspace's design: custom field definitions, pipelines and their stages, and its settings. */
export const schemaWorker: WorkerDefinition = {
  name: 'schema',
  handlers: [
    handle(listCustomFields, listCustomFieldsHandler),
    handle(getCustomField, getCustomFieldHandler),
    handle(createCustomField, createCustomFieldHandler),
    handle(updateCustomField, updateCustomFieldHandler),
    handle(archiveCustomField, archiveCustomFieldHandler),
    handle(listPipelines, listPipelinesHandler),
    handle(getPipeline, getPipelineHandler),
    handle(createPipeline, createPipelineHandler),
    handle(updatePipeline, updatePipelineHandler),
    handle(createStage, createStageHandler),
    handle(updateStage, updateStageHandler),
    handle(archiveStage, archiveStageHandler),
    handle(describeSchema, describeSchemaHandler),
    handle(getWorkspaceSettings, getWorkspaceSettingsHandler),
    handle(updateWorkspaceSettings, updateWorkspaceSettingsHandler),
  ],
};

import type { McpServerDefinition } from '../../../shared/auth/mcp-servers.js';
import { scopesOn } from '../../../shared/bus/operation.js';
import { describeSchema } from '../../../shared/contracts/schema.js';
import { NotFoundError } from '../../../shared/errors.js';
import type { ResourceDefinition } from '../mcp-features.js';
import { serverScopes } from '../tool.js';
import { customFieldKeys, pipelineIds } from './workspace-values.js';

/** The workspace's design as resources: the whole schema, each pipeline with its stages, each custom field. */
export function schemaResources(server: McpServerDefinition): ResourceDefinition[] {
  const scopes = scopesOn(describeSchema, serverScopes(server));
  return [
    {
      name: 'schema',
      title: 'Workspace schema',
      description: 'Custom fields of contacts and deals (key, type, options) and the pipelines with their stages in order.',
      uriTemplate: 'crm://schema',
      scopes,
      read: (_vars, call) => call.run(describeSchema, {}),
    },
    {
      name: 'pipeline',
      title: 'Pipeline',
      description: 'One pipeline with its stages in order.',
      uriTemplate: 'crm://pipelines/{id}',
      scopes,
      list: async (call) =>
        (await call.run(describeSchema, {})).pipelines.map((p) => ({
          uri: `crm://pipelines/${p.id}`,
          name: `pipeline-${p.id}`,
          title: `Pipeline ${p.name}`,
          description: `Stages: ${p.stages.filter((s) => !s.archived).map((s) => s.name).join(' → ')}`,
        })),
      read: async ({ id }, call) => {
        const pipeline = (await call.run(describeSchema, {})).pipelines.find((p) => p.id === id);
        if (!pipeline) throw new NotFoundError('pipeline', id);
        return pipeline;
      },
      complete: { id: pipelineIds },
    },
    {
      name: 'custom-field',
      title: 'Custom field',
      description: 'One custom field of contacts or deals: its type, and the options of a select field.',
      uriTemplate: 'crm://custom-fields/{object_type}/{key}',
      scopes,
      read: async ({ object_type: objectType, key }, call) => {
        const fields = (await call.run(describeSchema, {})).custom_fields;
        const field = objectType === 'contact' || objectType === 'deal' ? fields[objectType].find((f) => f.key === key) : undefined;
        if (!field) throw new NotFoundError(`${objectType} custom field`, key);
        return field;
      },
      complete: { object_type: () => Promise.resolve(['contact', 'deal']), key: customFieldKeys },
    },
  ];
}

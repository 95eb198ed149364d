import { describeSchema, SchemaDescription } from '../../../../shared/contracts/schema.js';
import { defineTool, READ_ONLY } from '../../tool.js';

export const describeSchemaTool = defineTool({
  name: 'describe_schema',
  title: 'Describe the CRM schema',
  description:
    'The shape of the workspace: custom fields of contacts and deals (key, type, select options, required), and the pipelines with their stages in order.',
  scopes: ['schema:read', 'contacts:read', 'deals:read'],
  writes: false,
  annotations: READ_ONLY,
  input: {},
  output: SchemaDescription,
  run: async (_args, call) => call.run(describeSchema, {}),
});

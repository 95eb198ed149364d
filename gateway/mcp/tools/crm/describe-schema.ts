import { describeSchema, SchemaDescription } from '../../../../shared/contracts/schema.js';
import { defineTool } from '../../tool.js';

export const describeSchemaTool = defineTool({
  name: 'describe_schema',
  title: 'Describe the CRM schema',
  description:
    'The shape of the workspace: custom fields of contacts and deals (key, type, select options, required), and the pipelines with their stages in order.',
  op: describeSchema,
  input: {},
  output: SchemaDescription,
});

import { describeSchema } from '../../../../shared/contracts/schema.js';
import { defineEndpoint } from '../../../api/endpoint.js';

export const describeSchemaEndpoint = defineEndpoint({
  method: 'get',
  path: '/v1/schema',
  operationId: 'describeSchema',
  summary: "Describe the workspace's design",
  description: 'Its active custom fields per object and its pipelines with their stages, in one answer. Any token that reads contacts, deals or the schema may ask.',
  tag: 'Custom fields',
  op: describeSchema,
  status: 200,
});

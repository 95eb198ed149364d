import type { Endpoint } from '../../api/endpoint.js';
import { contactEndpoints } from './contacts/endpoints.js';
import { customFieldEndpoints } from './custom-fields/endpoints.js';
import { dealEndpoints } from './deals/endpoints.js';
import { eventEndpoints } from './events/endpoints.js';
import { getMeEndpoint } from './me/endpoints.js';
import { noteEndpoints } from './notes/endpoints.js';
import { pipelineEndpoints } from './pipelines/endpoints.js';
import { describeSchemaEndpoint } from './schema/endpoints.js';
import { tokenEndpoints } from './tokens/endpoints.js';
import { webhookEndpointEndpoints } from './webhook-endpoints/endpoints.js';
import { workspaceEndpoints } from './workspace/endpoints.js';

/** Every REST endpoint: the gateway mounts exactly these, and the OpenAPI document lists them. */
export const V1_ENDPOINTS: readonly Endpoint[] = [
  getMeEndpoint,
  ...workspaceEndpoints,
  ...contactEndpoints,
  ...dealEndpoints,
  ...noteEndpoints,
  ...pipelineEndpoints,
  ...customFieldEndpoints,
  describeSchemaEndpoint,
  ...tokenEndpoints,
  ...eventEndpoints,
  ...webhookEndpointEndpoints,
] as readonly Endpoint[];

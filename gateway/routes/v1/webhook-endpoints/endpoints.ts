import {
  createWebhookEndpoint,
  deleteWebhookEndpoint,
  getWebhookEndpoint,
  getWebhookDelivery,
  listWebhookDeliveries,
  listWebhookEndpoints,
  MAX_WEBHOOK_ENDPOINTS,
  retryWebhookDelivery,
  RotateSecretFields,
  rotateWebhookSecret,
  sendTestWebhook,
  updateWebhookEndpoint,
  WebhookDelivery,
  WebhookEndpoint,
} from '../../../../shared/contracts/webhooks.js';
import { defineEndpoint } from '../../../api/endpoint.js';
import { listOf } from '../../../api/list-envelope.js';
import {
  CreateWebhookEndpointBody,
  ListWebhookDeliveriesQuery,
  ListWebhookEndpointsQuery,
  UpdateWebhookEndpointBody,
  WebhookDeliveryParams,
  WebhookEndpointIdParams,
} from './validators.js';

const tag = 'Webhooks';

export const createWebhookEndpointEndpoint = defineEndpoint({
  method: 'post',
  path: '/v1/webhook-endpoints',
  operationId: 'createWebhookEndpoint',
  summary: 'Create a webhook endpoint',
  description:
    `Events of the types in enabled_events are POSTed to url, signed per the Standard Webhooks specification (headers webhook-id, webhook-timestamp, webhook-signature) with the secret in this response, which is shown only here. The URL must be https and its host a public address (loopback, private, link-local and metadata addresses are refused, after DNS too), unless the operator set WEBHOOK_ALLOW_PRIVATE_NETWORKS for development. An endpoint receives events that happen after its creation. It may only receive events its creator could read with GET /v1/events: it needs events:read, and each type its record's read scope (contact.* contacts:read, deal.* deals:read, note.* both, custom_field.*, pipeline.*, stage.* and workspace.* schema:read, token.*, member.* and agent.* tokens:write; * all of them), else 403 missing_scope; a member who sees only their own records gets 403 forbidden. A workspace has at most ${MAX_WEBHOOK_ENDPOINTS} endpoints, enabled or disabled: one more is a 409 conflict (delete one first; one endpoint can take several types, or *).`,
  tag,
  op: createWebhookEndpoint,
  body: CreateWebhookEndpointBody,
  status: 201,
  errors: ['forbidden', 'conflict'],
  location: (endpoint) => `/v1/webhook-endpoints/${endpoint.id}`,
});

export const listWebhookEndpointsEndpoint = defineEndpoint({
  method: 'get',
  path: '/v1/webhook-endpoints',
  operationId: 'listWebhookEndpoints',
  summary: 'List webhook endpoints',
  description: 'Oldest first; never their secrets.',
  tag,
  op: listWebhookEndpoints,
  query: ListWebhookEndpointsQuery,
  response: listOf(WebhookEndpoint, 'WebhookEndpointList'),
  status: 200,
  errors: ['invalid_cursor'],
});

export const getWebhookEndpointEndpoint = defineEndpoint({
  method: 'get',
  path: '/v1/webhook-endpoints/{id}',
  operationId: 'getWebhookEndpoint',
  summary: 'Retrieve a webhook endpoint',
  tag,
  op: getWebhookEndpoint,
  params: WebhookEndpointIdParams,
  status: 200,
  errors: ['not_found'],
});

export const updateWebhookEndpointEndpoint = defineEndpoint({
  method: 'patch',
  path: '/v1/webhook-endpoints/{id}',
  operationId: 'updateWebhookEndpoint',
  summary: 'Update a webhook endpoint',
  description:
    'Changes the fields given. status disabled stops every delivery to it; enabled again, or a new url, forgets its failures (failing_since). A change of url or enabled_events needs what creating it would: the read scope of every event type it receives.',
  tag,
  op: updateWebhookEndpoint,
  params: WebhookEndpointIdParams,
  body: UpdateWebhookEndpointBody,
  status: 200,
  errors: ['not_found', 'forbidden'],
});

export const deleteWebhookEndpointEndpoint = defineEndpoint({
  method: 'delete',
  path: '/v1/webhook-endpoints/{id}',
  operationId: 'deleteWebhookEndpoint',
  summary: 'Delete a webhook endpoint',
  description: 'With its deliveries; nothing more is sent to it.',
  tag,
  op: deleteWebhookEndpoint,
  params: WebhookEndpointIdParams,
  status: 200,
  errors: ['not_found'],
});

export const rotateWebhookSecretEndpoint = defineEndpoint({
  method: 'post',
  path: '/v1/webhook-endpoints/{id}/rotate-secret',
  operationId: 'rotateWebhookEndpointSecret',
  summary: "Rotate a webhook endpoint's signing secret",
  description:
    'A new secret, shown only in this response. The old one stops signing at once (retries included), or with expire_previous_in keeps signing beside the new one for that many seconds: each delivery then carries both signatures, so the receiver can switch secrets without rejecting one.',
  tag,
  op: rotateWebhookSecret,
  params: WebhookEndpointIdParams,
  body: RotateSecretFields,
  bodyOptional: true,
  status: 200,
  errors: ['not_found'],
});

export const sendTestWebhookEndpoint = defineEndpoint({
  method: 'post',
  path: '/v1/webhook-endpoints/{id}/test',
  operationId: 'sendTestWebhook',
  summary: 'Send a test event',
  description:
    'Queues a signed event of type webhook_endpoint.test (data.object: the endpoint), sent at once and not retried. The reply is the pending delivery; its attempt appears in the deliveries list a moment later.',
  tag,
  op: sendTestWebhook,
  params: WebhookEndpointIdParams,
  status: 201,
  errors: ['not_found', 'conflict'],
});

export const listWebhookDeliveriesEndpoint = defineEndpoint({
  method: 'get',
  path: '/v1/webhook-endpoints/{id}/deliveries',
  operationId: 'listWebhookDeliveries',
  summary: "List an endpoint's deliveries",
  description:
    'Newest first, each with every attempt (time, HTTP status, latency, error); with status, only those in that state (failed: the ones to retry). Follow links.next to read further back: it keeps the filter.',
  tag,
  op: listWebhookDeliveries,
  params: WebhookEndpointIdParams,
  query: ListWebhookDeliveriesQuery,
  input: ({ params, query }) => ({ endpoint_id: params.id, ...query }),
  response: listOf(WebhookDelivery, 'WebhookDeliveryList'),
  status: 200,
  errors: ['not_found', 'invalid_cursor'],
});

export const getWebhookDeliveryEndpoint = defineEndpoint({
  method: 'get',
  path: '/v1/webhook-endpoints/{id}/deliveries/{delivery_id}',
  operationId: 'getWebhookDelivery',
  summary: 'Get a delivery',
  description: "One delivery with every attempt, as the list shows it: poll it after a retry. 404 for a delivery of another endpoint or workspace.",
  tag,
  op: getWebhookDelivery,
  params: WebhookDeliveryParams,
  input: ({ params }) => ({ endpoint_id: params.id, id: params.delivery_id }),
  status: 200,
  errors: ['not_found'],
});

export const retryWebhookDeliveryEndpoint = defineEndpoint({
  method: 'post',
  path: '/v1/webhook-endpoints/{id}/deliveries/{delivery_id}/retry',
  operationId: 'retryWebhookDelivery',
  summary: 'Retry a delivery',
  description:
    'Sends it again now: a failed delivery gets one more attempt, a pending one is sent without waiting for its next scheduled attempt. 409 `conflict` while an attempt of it is under way (retry once it has ended: a second copy is not sent beside it), for a succeeded delivery, for a disabled endpoint, and for an event type the endpoint no longer enables.',
  tag,
  op: retryWebhookDelivery,
  params: WebhookDeliveryParams,
  input: ({ params }) => ({ endpoint_id: params.id, id: params.delivery_id }),
  status: 200,
  errors: ['not_found', 'conflict'],
});

export const webhookEndpointEndpoints = [
  createWebhookEndpointEndpoint,
  listWebhookEndpointsEndpoint,
  getWebhookEndpointEndpoint,
  updateWebhookEndpointEndpoint,
  deleteWebhookEndpointEndpoint,
  rotateWebhookSecretEndpoint,
  sendTestWebhookEndpoint,
  listWebhookDeliveriesEndpoint,
  getWebhookDeliveryEndpoint,
  retryWebhookDeliveryEndpoint,
];

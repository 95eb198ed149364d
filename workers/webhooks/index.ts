import { getEvent, listEvents } from '../../shared/contracts/events.js';
import { createRateLimitBucket } from '../../shared/contracts/rate-limits.js';
import {
  createWebhookEndpoint,
  deleteWebhookEndpoint,
  getWebhookEndpoint,
  getWebhookDelivery,
  listWebhookDeliveries,
  listWebhookEndpoints,
  retryWebhookDelivery,
  rotateWebhookSecret,
  sendTestWebhook,
  updateWebhookEndpoint,
} from '../../shared/contracts/webhooks.js';
import { handle, type WorkerDefinition } from '../runtime/worker-call.js';
import { listDeliveriesHandler } from './deliveries/list-deliveries.js';
import { getDeliveryHandler } from './deliveries/get-delivery.js';
import { retryDeliveryHandler } from './deliveries/retry-delivery.js';
import { createEndpointHandler } from './endpoints/create-endpoint.js';
import { deleteEndpointHandler } from './endpoints/delete-endpoint.js';
import { getEndpointHandler } from './endpoints/get-endpoint.js';
import { listEndpointsHandler } from './endpoints/list-endpoints.js';
import { rotateSecretHandler } from './endpoints/rotate-secret.js';
import { sendTestEventHandler } from './endpoints/send-test-event.js';
import { updateEndpointHandler } from './endpoints/update-endpoint.js';
import { getEventHandler } from './events/get-event.js';
import { startWebhooksBackground } from './webhooks-background.js';
import { listEventsHandler } from './events/list-events.js';
import { createRateLimitBucketHandler } from './rate-limits/create-rate-limit-bucket.js';

/**
 * The change history: reading the feed, relaying it to the event stream, webhook endpoints, and
 * delivering events to them. It keeps the service's JetStream streams: the event stream, and the
 * gateways' rate-limit bucket, which it creates when a gateway finds none.
 */
export const webhooksWorker: WorkerDefinition = {
  name: 'webhooks',
  handlers: [
    handle(listEvents, listEventsHandler),
    handle(getEvent, getEventHandler),
    handle(createWebhookEndpoint, createEndpointHandler),
    handle(listWebhookEndpoints, listEndpointsHandler),
    handle(getWebhookEndpoint, getEndpointHandler),
    handle(updateWebhookEndpoint, updateEndpointHandler),
    handle(deleteWebhookEndpoint, deleteEndpointHandler),
    handle(rotateWebhookSecret, rotateSecretHandler),
    handle(sendTestWebhook, sendTestEventHandler),
    handle(listWebhookDeliveries, listDeliveriesHandler),
    handle(getWebhookDelivery, getDeliveryHandler),
    handle(retryWebhookDelivery, retryDeliveryHandler),
    handle(createRateLimitBucket, createRateLimitBucketHandler),
  ],
  background: startWebhooksBackground,
};

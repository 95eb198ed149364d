import type { ZodOpenApiPathsObject } from 'zod-openapi';
import { WebhookEvent, WebhookHeaders } from '../../shared/contracts/webhook-payload.js';

/** The name of the one webhook in the document: every event type arrives alike, told apart by `type`. */
export const WEBHOOK_NAME = 'event';

/**
 * OpenAPI 3.1's top-level `webhooks`: what the service POSTs to an endpoint, so a receiver's
 * types can be generated from the document like a client's. From the contract's schemas.
 */
export function webhooksSection(): ZodOpenApiPathsObject {
  return {
    [WEBHOOK_NAME]: {
      post: {
        operationId: 'receiveEvent',
        summary: 'An event, POSTed to a webhook endpoint',
        description: [
          'Sent to the url of each enabled endpoint whose enabled_events match the type, signed per the Standard Webhooks specification (https://www.standardwebhooks.com/) with the endpoint secret (whsec_…).',
          'Verify before trusting the body: new Webhook(secret).verify(rawBody, headers) with any Standard Webhooks library, on the body exactly as received.',
          'At least once: deduplicate on webhook-id. A 2xx answer within WEBHOOK_TIMEOUT (10 s unless configured) is a success; redirects are not followed; anything else is retried on WEBHOOK_RETRY_SCHEDULE (about 24 hours by default), except a test event, which is sent once.',
        ].join('\n\n'),
        tags: ['Webhooks'],
        security: [],
        requestParams: { header: WebhookHeaders },
        requestBody: { required: true, content: { 'application/json': { schema: WebhookEvent } } },
        responses: {
          '2XX': { description: 'Received: the delivery succeeded. The body, if any, is ignored (at most 4 KB of it is read).' },
          default: { description: 'Not received: the delivery is retried on its schedule, then failed (a test event is not retried); each attempt is kept with its status (GET /v1/webhook-endpoints/{id}/deliveries).' },
        },
      },
    },
  };
}

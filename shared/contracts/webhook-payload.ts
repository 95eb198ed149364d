import { z } from 'zod';
import { Event, EVENT_TYPES } from './events.js';

/**
 * What a webhook delivery carries: the Standard Webhooks headers and the event as the body.
 * The OpenAPI document's `webhooks` section is generated from these, and the sender's
 * headers are typed by them, so a receiver type generated from the document is what arrives.
 */

/** A test event (`POST /v1/webhook-endpoints/{id}/test`, `crm webhooks test`): not a change, so never in the history or the stream, and never retried. */
export const WEBHOOK_TEST_EVENT_TYPE = 'webhook_endpoint.test';

export const WebhookHeaders = z.object({
  'webhook-id': z.string().describe('msg_…: the delivery, the same on every attempt of it; deduplicate on it'),
  'webhook-timestamp': z.string().regex(/^\d+$/).describe('When this attempt was signed, in whole seconds since 1970 (UTC); refuse one too far from your clock to stop replays'),
  'webhook-signature': z
    .string()
    .describe(
      'Space-separated v1,<base64 HMAC-SHA256 of "<webhook-id>.<webhook-timestamp>.<body>"> under the endpoint secret; two during a rotation that keeps the previous secret. Verify with any Standard Webhooks library: new Webhook(secret).verify(body, headers)',
    ),
});
export type WebhookHeaders = z.infer<typeof WebhookHeaders>;

export const WebhookEvent = Event.extend({
  type: z.enum([...EVENT_TYPES, WEBHOOK_TEST_EVENT_TYPE]).describe(`The event type, or ${WEBHOOK_TEST_EVENT_TYPE} for a test event (data.object: the endpoint)`),
  workspace_id: z.string().nullable().describe('The workspace; null only in the test event of crm webhooks test, which no workspace sends (its data.object holds only the url)'),
}).meta({ id: 'WebhookEvent', description: 'The body of every webhook delivery: the event as GET /v1/events/{id} returns it, or a test event' });
export type WebhookEvent = z.infer<typeof WebhookEvent>;

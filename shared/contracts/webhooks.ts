import { z } from 'zod';
import { defineOperation } from '../bus/operation.js';
import { cleanText, Cursor, PageLimit, pageOf, Timestamp, VISIBLE } from './common.js';
import { EVENT_TYPES } from './events.js';

/**
 * Webhook endpoints and their deliveries. Deliveries follow the Standard Webhooks
 * specification: headers `webhook-id` (the delivery, `msg_…`), `webhook-timestamp` and
 * `webhook-signature` (`v1,<base64 HMAC-SHA256>` under the endpoint's `whsec_…` secret),
 * the body the event as `GET /v1/events/{id}` returns it.
 */

export const WEBHOOK_ENDPOINT_STATUSES = ['enabled', 'disabled'] as const;
export const WebhookEndpointStatus = z.enum(WEBHOOK_ENDPOINT_STATUSES);
export type WebhookEndpointStatus = z.infer<typeof WebhookEndpointStatus>;

/** `contact.` or `contact.*`: the events feed's type filter takes the first, so integrators try it here. */
const TYPE_PREFIX = /^([a-z_]+)\.\*?$/;

/** Why an entry is not an event type; a prefix is answered with the types it stands for, to list instead. */
function notAnEventType(input: unknown): string {
  const kind = typeof input === 'string' ? TYPE_PREFIX.exec(input)?.[1] : undefined;
  const types = kind === undefined ? [] : EVENT_TYPES.filter((type) => type.startsWith(`${kind}.`));
  if (types.length === 0) return 'must be an event type (e.g. contact.created) or *';
  return `must be an event type or *: a prefix such as ${String(input)} is not accepted here; list the types (${types.join(', ')})`;
}

/** An event type, or `*` for every type (present and future). */
export const EnabledEvent = z.enum(['*', ...EVENT_TYPES], { error: (issue) => notAnEventType(issue.input) });
export type EnabledEvent = z.infer<typeof EnabledEvent>;

/** Entries an enabled_events list may have: duplicates are dropped, so a list may repeat a type; this only bounds how much is read. */
const MAX_ENABLED_EVENT_ENTRIES = 256;

/** A lone type or `"*"` sent without its brackets: said as such, not as zod's "expected array, received string". Null and absence keep their own messages. */
const notAList = (issue: { code: string; input?: unknown }) =>
  issue.code === 'invalid_type' && issue.input !== undefined && issue.input !== null ? 'must be a list of event types, e.g. ["contact.created"], or ["*"] for every one' : undefined;

const EnabledEvents = z
  .array(EnabledEvent, { error: notAList })
  .min(1, 'at least one event type (or *) is required')
  .max(MAX_ENABLED_EVENT_ENTRIES, `must have at most ${MAX_ENABLED_EVENT_ENTRIES} entries`)
  .transform((types) => (types.includes('*') ? ['*' as const] : [...new Set(types)]))
  .describe('Event types to receive, or ["*"] for every one');

/**
 * The address as the URL parser reads it (`https:///x` and `https://x\@y/` become the
 * `https://x/…` deliveries go to, a name in Unicode its ASCII form), so the endpoint shows
 * where its deliveries go. That it is https and public is checked by the worker, which resolves it.
 */
export function webhookUrlAsStored(text: string): string {
  try {
    return new URL(text).href;
  } catch {
    return text;
  }
}

/** The port a URL's text names, if any (the URL parser refuses one past 65535 without saying why). */
const NAMED_PORT = /^[a-z][a-z0-9+.-]*:\/\/(?:[^/?#@]*@)?(?:\[[^\]/?#]*\]|[^/?#:[]*):(\d+)(?:[/?#]|$)/i;

/** A port that cannot exist (past 65535): named, not reported as "not an absolute URL". Port 0 parses, and the worker's URL check refuses it. */
export function impossiblePort(text: string): boolean {
  const port = NAMED_PORT.exec(text)?.[1];
  return port !== undefined && Number(port) > 65_535;
}

/** Why such a URL is refused, by the API and by `crm webhooks test` alike. */
export const IMPOSSIBLE_PORT_PROBLEM = 'must name a port from 1 to 65535, or none (443 for https)';

const WebhookUrl = z
  .string()
  .trim()
  .max(2048, 'must be at most 2048 characters')
  .refine((text) => !impossiblePort(text), IMPOSSIBLE_PORT_PROBLEM)
  .pipe(z.url({ protocol: /^https?$/, error: 'must be an absolute https URL' }))
  .transform(webhookUrlAsStored)
  .pipe(z.string().max(2048, 'must be at most 2048 characters, written out as a URL'))
  .describe('Where deliveries are POSTed: https, on a public address. Stored as the URL parser reads it (e.g. https://example.com/hooks, lower-case host, ASCII form of a Unicode name)');

/**
 * Endpoints a workspace may have, enabled or disabled (Stripe's figure): every event is
 * matched against each of them and fans out to every match, so one token could otherwise
 * multiply each write's deliveries by thousands.
 */
export const MAX_WEBHOOK_ENDPOINTS = 16;

export const WebhookEndpoint = z
  .object({
    object: z.literal('webhook_endpoint'),
    id: z.string().describe('we_…'),
    workspace_id: z.string(),
    url: z.string(),
    description: z.string().nullable(),
    enabled_events: z.array(EnabledEvent),
    status: WebhookEndpointStatus.describe('disabled: receives nothing (set by hand, or after WEBHOOK_DISABLE_AFTER of failures)'),
    failing_since: Timestamp.nullable().describe('Since when every delivery attempt has failed; null while it succeeds'),
    secret_rotated_at: Timestamp.nullable().describe('When the signing secret was last replaced; null if never'),
    previous_secret_expires_at: Timestamp.nullable().describe(
      'After a rotation that kept the previous secret: until when deliveries also carry its signature; null when only the current secret signs',
    ),
    created_at: Timestamp,
    updated_at: Timestamp,
  })
  .meta({ id: 'WebhookEndpoint' });
export type WebhookEndpoint = z.infer<typeof WebhookEndpoint>;

/** Only creation and rotation carry the secret, once. */
export const WebhookEndpointWithSecret = WebhookEndpoint.extend({
  secret: z.string().describe('whsec_…: verify deliveries with it (any Standard Webhooks library). Shown only in this response; store it now.'),
}).meta({ id: 'WebhookEndpointWithSecret' });

/** At most a week: long enough to roll a receiver out, short enough that a leaked secret dies. */
export const MAX_PREVIOUS_SECRET_SECONDS = 7 * 24 * 3600;

/** Every way expire_previous_in can be wrong (text such as "3600", a fraction, a negative, too long) is answered with what it takes, in zod's words none of them. */
const EXPIRE_PREVIOUS_IN_RANGE = `must be a whole number of seconds (a JSON number, e.g. 3600) from 0 to ${MAX_PREVIOUS_SECRET_SECONDS} (7 days)`;

export const RotateSecretFields = z
  .strictObject({
    expire_previous_in: z
      .number({ error: (issue) => (issue.input === undefined || issue.input === null ? undefined : EXPIRE_PREVIOUS_IN_RANGE) })
      .int(EXPIRE_PREVIOUS_IN_RANGE)
      .min(0, EXPIRE_PREVIOUS_IN_RANGE)
      .max(MAX_PREVIOUS_SECRET_SECONDS, EXPIRE_PREVIOUS_IN_RANGE)
      .optional()
      .describe(
        'Seconds the current secret keeps signing beside the new one (each delivery then carries both signatures), so the receiver can switch without rejecting deliveries; default 0: it stops at once (as for a leaked secret). At most 604800 (7 days)',
      ),
  })
  .meta({ id: 'RotateWebhookSecret' });

/** What the endpoint is for, to people; blank is none (null), as the console stores it. */
const Description = cleanText(500)
  .transform((text) => (VISIBLE.test(text) ? text : null))
  .nullable()
  .optional()
  .describe('At most 500 characters; null or blank for none');

export const CreateWebhookEndpointInput = z.strictObject({
  url: WebhookUrl,
  enabled_events: EnabledEvents,
  description: Description,
  status: WebhookEndpointStatus.optional().describe('Default enabled'),
});

export const UpdateWebhookEndpointInput = z.strictObject({
  url: WebhookUrl.optional(),
  enabled_events: EnabledEvents.optional(),
  description: Description,
  status: WebhookEndpointStatus.optional().describe('enabled again clears failing_since'),
});

export const WEBHOOK_DELIVERY_STATUSES = ['pending', 'succeeded', 'failed'] as const;
export const WebhookDeliveryStatus = z.enum(WEBHOOK_DELIVERY_STATUSES);

export const WebhookDeliveryAttempt = z
  .object({
    attempted_at: Timestamp,
    status_code: z.number().int().nullable().describe('The HTTP status; null when no response came'),
    latency_ms: z.number().int(),
    succeeded: z.boolean(),
    error: z.string().nullable().describe('Why it failed: the status, a timeout, a refused address, a redirect not followed…'),
  })
  .meta({ id: 'WebhookDeliveryAttempt' });

export const WebhookDelivery = z
  .object({
    object: z.literal('webhook_delivery'),
    id: z.string().describe('msg_…: the webhook-id header'),
    endpoint_id: z.string(),
    event_id: z.string(),
    event_type: z.string().describe('The event type, or webhook_endpoint.test for a test event'),
    status: WebhookDeliveryStatus.describe('pending (to be sent or retried), succeeded (a 2xx), failed (retries exhausted)'),
    attempt_count: z.number().int(),
    next_attempt_at: Timestamp.nullable().describe(
      'When it is sent next, while pending and waiting; null while an attempt of it is under way (its outcome then appears in attempts, and a retry by hand is a 409 until it ends), and once it succeeded or failed',
    ),
    created_at: Timestamp,
    attempts: z.array(WebhookDeliveryAttempt).describe('Every attempt, oldest first'),
  })
  .meta({ id: 'WebhookDelivery' });
export type WebhookDelivery = z.infer<typeof WebhookDelivery>;

const EndpointId = z.string().max(64);

export const createWebhookEndpoint = defineOperation({
  worker: 'webhooks',
  resource: 'endpoints',
  verb: 'create',
  scope: 'webhooks:write',
  input: CreateWebhookEndpointInput,
  output: WebhookEndpointWithSecret,
});

export const listWebhookEndpoints = defineOperation({
  worker: 'webhooks',
  resource: 'endpoints',
  verb: 'list',
  readOnly: true,
  scope: 'webhooks:write',
  input: z.strictObject({ limit: PageLimit, cursor: Cursor.optional() }),
  output: pageOf(WebhookEndpoint),
});

export const getWebhookEndpoint = defineOperation({
  worker: 'webhooks',
  resource: 'endpoints',
  verb: 'get',
  readOnly: true,
  scope: 'webhooks:write',
  input: z.strictObject({ id: EndpointId }),
  output: WebhookEndpoint,
});

export const updateWebhookEndpoint = defineOperation({
  worker: 'webhooks',
  resource: 'endpoints',
  verb: 'update',
  destructive: true,
  scope: 'webhooks:write',
  input: UpdateWebhookEndpointInput.extend({ id: EndpointId }),
  output: WebhookEndpoint,
});

export const deleteWebhookEndpoint = defineOperation({
  worker: 'webhooks',
  resource: 'endpoints',
  verb: 'delete',
  destructive: true,
  scope: 'webhooks:write',
  input: z.strictObject({ id: EndpointId }),
  output: z.object({ object: z.literal('webhook_endpoint'), id: z.string(), deleted: z.literal(true) }).meta({ id: 'DeletedWebhookEndpoint' }),
});

export const rotateWebhookSecret = defineOperation({
  worker: 'webhooks',
  resource: 'endpoints',
  verb: 'rotate-secret',
  destructive: true,
  scope: 'webhooks:write',
  input: z.strictObject({ id: EndpointId, ...RotateSecretFields.shape }),
  output: WebhookEndpointWithSecret,
});

/** Queues a signed `webhook_endpoint.test` event for the endpoint, sent at once. */
export const sendTestWebhook = defineOperation({
  worker: 'webhooks',
  resource: 'endpoints',
  verb: 'send-test',
  scope: 'webhooks:write',
  input: z.strictObject({ id: EndpointId }),
  output: WebhookDelivery,
});

/** Newest first; only those in `status` when given. */
export const listWebhookDeliveries = defineOperation({
  worker: 'webhooks',
  resource: 'deliveries',
  verb: 'list',
  readOnly: true,
  scope: 'webhooks:write',
  input: z.strictObject({ endpoint_id: EndpointId, status: WebhookDeliveryStatus.optional(), limit: PageLimit, cursor: Cursor.optional() }),
  output: pageOf(WebhookDelivery),
});

/** One delivery of the endpoint, with its attempts: what an integrator polls after a retry by hand. */
export const getWebhookDelivery = defineOperation({
  worker: 'webhooks',
  resource: 'deliveries',
  verb: 'get',
  readOnly: true,
  scope: 'webhooks:write',
  input: z.strictObject({ endpoint_id: EndpointId, id: z.string().max(64) }),
  output: WebhookDelivery,
});

/** Sends a delivery again now: a failed one gets one more attempt (failing again leaves it failed); a pending one is sent without waiting; one being sent, or succeeded, is a conflict. */
export const retryWebhookDelivery = defineOperation({
  worker: 'webhooks',
  resource: 'deliveries',
  verb: 'retry',
  destructive: true,
  scope: 'webhooks:write',
  input: z.strictObject({ endpoint_id: EndpointId, id: z.string().max(64) }),
  output: WebhookDelivery,
});

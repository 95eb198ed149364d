import type { Event, EventType } from '../contracts/events.js';

/**
 * The JetStream stream the relay publishes every event to. Integrators inside the
 * deployment may consume it directly; the webhooks worker consumes it through one durable
 * consumer shared by its copies.
 *
 * - Stream `<namespace>-events` (a stream name cannot hold dots).
 * - Subjects `<namespace>.events.<workspace_id>.<type>`, e.g.
 *   `crm.events.ws_01J….deal.stage_changed`: filter one workspace with
 *   `crm.events.ws_01J….>`, or one kind everywhere with `crm.events.*.contact.>`.
 * - Payload: the event as `GET /v1/events/{id}` returns it (JSON); message id
 *   (`Nats-Msg-Id`) the event id, so a republished event is stored once.
 */
export function eventStreamName(namespace: string): string {
  return `${namespace}-events`;
}

export function eventStreamSubjects(namespace: string): string {
  return `${namespace}.events.>`;
}

export function eventSubjectOf(namespace: string, workspaceId: string, type: EventType): string {
  return `${namespace}.events.${workspaceId}.${type}`;
}

/** The durable consumer the webhooks worker copies share: each event reaches one of them. */
export function webhookConsumerName(namespace: string): string {
  return `${namespace}-webhooks`;
}

/** Room in a stream message for its headers (message id) and NATS's protocol line. */
const STREAM_ENVELOPE_BYTES = 4 * 1024;

/**
 * The stream message of an event: the event as JSON, or, when that would not fit in one
 * NATS message (a record with many long custom field values, changed all at once), the
 * event without its data, marked `data_omitted`, so the relay never stalls on it and every
 * consumer still learns what changed and where to read it whole.
 */
export function streamMessageOf(event: Event, maxMessageBytes: number): string {
  const json = JSON.stringify(event);
  const room = maxMessageBytes - STREAM_ENVELOPE_BYTES;
  // A UTF-16 unit is at most 3 bytes of UTF-8: most events are decided without counting.
  if (json.length * 3 <= room || Buffer.byteLength(json) <= room) return json;
  const { id, object } = event.data.object;
  return JSON.stringify({ ...event, data: { object: { id, object }, previous_attributes: null }, data_omitted: true } satisfies Event);
}

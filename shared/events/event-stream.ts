import { MESSAGE_ENVELOPE_BYTES } from '../bus/transport.js';
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

/** The subjects of one workspace's events, of one type, of a prefix ending in a dot (`contact.`), or of all. */
export function eventFilterSubjectOf(namespace: string, workspaceId: string, type: string | undefined): string {
  const typeSubject = type === undefined ? '>' : type.endsWith('.') ? `${type.slice(0, -1)}.>` : type;
  return `${namespace}.events.${workspaceId}.${typeSubject}`;
}

/** The durable consumer the webhooks worker copies share: each event reaches one of them. */
export function webhookConsumerName(namespace: string): string {
  return `${namespace}-webhooks`;
}

/**
 * The stream message of an event: the event as JSON, or, when that would not fit in one
 * NATS message (a record with many long custom field values, changed all at once), the
 * event without its data, marked `data_omitted`, so the relay never stalls on it and every
 * consumer still learns what changed and where to read it whole.
 */
export function streamMessageOf(event: Event, maxMessageBytes: number): string {
  const json = JSON.stringify(event);
  const room = maxMessageBytes - MESSAGE_ENVELOPE_BYTES;
  // A UTF-16 unit is at most 3 bytes of UTF-8: most events are decided without counting.
  if (json.length * 3 <= room || Buffer.byteLength(json) <= room) return json;
  return JSON.stringify(omittedEvent(event));
}

/** An event without its data, for wherever it is too large to carry whole: the record's id and kind remain. */
export function omittedEvent(event: Event): Event {
  const { id, object } = event.data.object;
  return { ...event, data: { object: { id, object }, previous_attributes: null }, data_omitted: true };
}

import type { EventType } from '../contracts/events.js';

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

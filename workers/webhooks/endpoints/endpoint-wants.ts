import { WEBHOOK_TEST_EVENT_TYPE } from '../../../shared/contracts/webhook-payload.js';

/**
 * Whether an endpoint with these `enabled_events` receives events of `type` now: read at
 * fan-out and again at every attempt, so an event type dropped from the list stops its
 * pending retries too. A test event is sent whatever the endpoint enables.
 */
export function endpointWants(enabledEvents: readonly string[], type: string): boolean {
  const wanted = typesWanted(enabledEvents);
  return wanted === 'all' || wanted.includes(type);
}

/** The same rule as a list, for a query that selects deliveries by type: `all`, or the types. */
export function typesWanted(enabledEvents: readonly string[]): 'all' | readonly string[] {
  return enabledEvents.includes('*') ? 'all' : [WEBHOOK_TEST_EVENT_TYPE, ...enabledEvents];
}

/** What a delivery that came due after its type was dropped from the endpoint's `enabled_events` shows for it. */
export function notSentUnsubscribed(type: string): string {
  return `Not sent: the endpoint no longer enables ${type}. Add it to enabled_events, then retry this delivery.`;
}

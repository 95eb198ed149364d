import { webhookUrlAsStored } from '../../../shared/contracts/webhooks.js';
import { leftAsIs } from '../../runtime/left-as-is.js';
import type { WebhookEndpointRow } from './endpoint-resource.js';

/** The fields a PATCH may set, as validated (undefined: left as is). */
export interface EndpointChange {
  url?: string;
  description?: string | null;
  enabled_events?: readonly string[];
  status?: string;
}

/**
 * Whether a PATCH leaves the (locked) endpoint as it is: then nothing is written, so neither
 * updated_at moves nor an event is recorded, as for contacts, deals and notes.
 */
export function endpointUnchanged(current: WebhookEndpointRow, fields: EndpointChange): boolean {
  return (
    // A url kept before urls were stored as parsed compares as it would be stored now.
    leftAsIs(fields.url, webhookUrlAsStored(current.url)) &&
    leftAsIs(fields.description, current.description) &&
    leftAsIs(fields.status, current.status) &&
    (fields.enabled_events === undefined || sameTypes(fields.enabled_events, current.enabled_events))
  );
}

/** The same event types in another order enable the same deliveries (both lists are without repeats). */
function sameTypes(given: readonly string[], stored: unknown): boolean {
  return Array.isArray(stored) && given.length === stored.length && given.every((type) => stored.includes(type));
}

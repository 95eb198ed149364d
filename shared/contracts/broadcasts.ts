import { defineEvent } from '../bus/bus-event.js';

/**
 * Every broadcast on the bus, in one place. The tokens worker publishes them; each gateway
 * listens, so a change made through one gateway reaches the caches of all of them at once.
 * Subjects follow the operations' scheme with an event in place of the verb, e.g.
 * `crm.tokens.api-tokens.revoked`.
 */

/** An API token was revoked: gateways drop it from their cache. Carries `{ token_id }`. */
export const TOKEN_REVOKED_EVENT = defineEvent({ worker: 'tokens', resource: 'api-tokens', event: 'revoked' });

/**
 * A grant was revoked, or its member's permissions changed or ended: gateways drop its
 * cached status and apply the change at once. Carries `{ grant_id }`.
 */
export const GRANT_CHANGED_EVENT = defineEvent({ worker: 'tokens', resource: 'oauth', event: 'grant-changed' });

/** The signing keys changed: gateways fetch the key set again. Carries `{ kid }`. */
export const SIGNING_KEYS_CHANGED_EVENT = defineEvent({ worker: 'tokens', resource: 'oauth', event: 'signing-keys-changed' });

/** All of them: NATS permissions (shared/bus/nats-permissions.ts) are derived from this list. */
export const BUS_EVENTS = [TOKEN_REVOKED_EVENT, GRANT_CHANGED_EVENT, SIGNING_KEYS_CHANGED_EVENT] as const;

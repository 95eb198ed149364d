import type { CallContext } from '../../../shared/contracts/call-context.js';
import { grantsScope } from '../../../shared/auth/scopes.js';
import { scopesOf } from '../../../shared/bus/operation.js';
import { EVENT_OBJECTS, listEvents, missingScopeForEveryEventOf, objectTypeOf, type EventObjectType } from '../../../shared/contracts/events.js';
import type { EnabledEvent } from '../../../shared/contracts/webhooks.js';
import { ForbiddenError, MissingScopeError } from '../../../shared/errors.js';
import { ownerRestriction } from '../../runtime/visibility.js';

const EVERY_KIND = Object.keys(EVENT_OBJECTS) as EventObjectType[];

/**
 * An endpoint receives whole events, at an address its caller chooses: so a caller may
 * point one only at events it could read itself through GET /v1/events, whose own scope
 * (events:read) first, then every event of each type named (a note's, both kinds of
 * record's; `*`, every kind's), and a member who sees only their own records may not point
 * one at all. Otherwise `webhooks:write` alone would read every contact and deal in the
 * workspace, and with a record's read scope its change history (who changed what, through
 * which token), which is what events:read grants.
 */
export function requireReadableEvents(context: CallContext, enabledEvents: readonly EnabledEvent[]): void {
  if (ownerRestriction(context) !== null) {
    throw new ForbiddenError('A member who sees only their own records cannot set where webhooks go: an endpoint receives the events of every record.');
  }
  const feed = scopesOf(listEvents)[0];
  if (feed && !grantsScope(context.principal.scopes, feed)) {
    throw new MissingScopeError(feed, `Receiving events needs the scope ${feed}, which the credential does not hold: an endpoint receives only events its creator may read with GET /v1/events.`);
  }
  const kinds = enabledEvents.includes('*') ? EVERY_KIND : [...new Set(enabledEvents.map((type) => objectTypeOf(type as Exclude<EnabledEvent, '*'>)))];
  for (const kind of kinds) {
    const missing = missingScopeForEveryEventOf(context.principal.scopes, kind);
    if (missing) {
      throw new MissingScopeError(missing, `Receiving ${kind} events needs the scope ${missing}, which the credential does not hold: an endpoint receives only events its creator may read.`);
    }
  }
}

import type { CallContext } from '../../../shared/contracts/call-context.js';
import { missingScopeForEveryEventOf, objectTypeOf, readScopesOf, readsEventsOf, type EventType, type listEvents } from '../../../shared/contracts/events.js';
import { MissingScopeError } from '../../../shared/errors.js';
import { omittedEvent } from '../../../shared/events/event-stream.js';
import { decodeCursor, pageFrom, type CursorScope } from '../../runtime/keyset-cursor.js';
import { beforePosition } from '../../runtime/keyset-sql.js';
import { likePrefix } from '../../runtime/like-prefix.js';
import { withOmission } from '../../runtime/shrinkable-page.js';
import type { OperationHandler } from '../../runtime/worker-call.js';
import { toEventResource } from './event-resource.js';
import { eventTimeBounds } from './event-time-range.js';
import { visibleEventsSql } from './event-visibility.js';

/**
 * A type filter for a kind of record the caller reads none of is refused, naming the scope,
 * rather than answered with an empty page that reads as "nothing changed".
 */
function requireReadableKind(context: CallContext, type: string): void {
  const kind = objectTypeOf(type as EventType); // a prefix (`contact.`) names its kind the same way
  if (readsEventsOf(context.principal.scopes, kind)) return;
  const missing = missingScopeForEveryEventOf(context.principal.scopes, kind);
  // A prefix (`token.`, as recent_changes sends its object_type) names a kind of record, not a type.
  const what = type.endsWith('.') ? `Events about ${kind} records` : `Events of type ${type}`;
  // A note's events are read with either scope (those of its contact or its deal): name both.
  const either = readScopesOf(kind);
  const needed = either.length > 1 ? `the scope ${either.join(' or ')}, and the credential holds neither` : `the scope ${missing}, which the credential does not hold`;
  if (missing) throw new MissingScopeError(missing, `${what} need ${needed}.`);
}

/** One page of the feed, newest first; the cursor continues the same filtered query. */
export const listEventsHandler: OperationHandler<typeof listEvents> = async ({ input, context, db, services }) => {
  const { limit, cursor, ...filters } = input;
  if (filters.type !== undefined) requireReadableKind(context, filters.type);
  const bounds = await eventTimeBounds(db, filters);
  // A day or a relative range is bound to the cursor as the instants it means (as in the contact
  // lists): read again after midnight, `today` means other instants, and the cursor is refused.
  const inScope = bounds.applied ? { ...filters, created_after: bounds.applied.created_after ?? undefined, created_before: bounds.applied.created_before ?? undefined, created_within: undefined } : filters;
  const scope: CursorScope = { workspaceId: context.workspace_id, list: 'events', filters: { ...inScope } };
  const before = cursor ? decodeCursor(services.secrets.cursorKey, scope, cursor) : undefined;
  const { type, object_id: objectId, actor_kind: actorKind, actor_id: actorId } = filters;
  const { after: from, before: until } = bounds;

  const rows = await db
    .selectFrom('events')
    .selectAll()
    .where(visibleEventsSql(db, context))
    .$if(type !== undefined && type.endsWith('.'), (q) => q.where('type', 'like', likePrefix(type!)))
    .$if(type !== undefined && !type.endsWith('.'), (q) => q.where('type', '=', type!))
    .$if(objectId !== undefined, (q) => q.where('object_id', '=', objectId!))
    .$if(actorKind !== undefined, (q) => q.where((eb) => eb(eb.ref('actor', '->>').key('kind'), '=', actorKind!)))
    .$if(actorId !== undefined, (q) => q.where((eb) => eb(eb.ref('actor', '->>').key('id'), '=', actorId!)))
    .$if(from !== undefined, (q) => q.where('created_at', from!.inclusive ? '>=' : '>', from!.at))
    .$if(until !== undefined, (q) => q.where('created_at', '<', until!))
    .$if(before !== undefined, (q) => q.where(beforePosition(before!)))
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit + 1)
    .execute();
  const page = withOmission(pageFrom(rows, limit, services.secrets.cursorKey, scope, toEventResource), omittedEvent);
  return bounds.applied ? { ...page, applied_range: bounds.applied } : page;
};

import type { listEvents } from '../../../shared/contracts/events.js';
import { decodeCursor, pageFrom, type CursorScope } from '../../runtime/keyset-cursor.js';
import { beforePosition } from '../../runtime/keyset-sql.js';
import { likePrefix } from '../../runtime/like-prefix.js';
import type { OperationHandler } from '../../runtime/worker-call.js';
import { toEventResource } from './event-resource.js';
import { visibleEventsSql } from './event-visibility.js';

/** One page of the feed, newest first; the cursor continues the same filtered query. */
export const listEventsHandler: OperationHandler<typeof listEvents> = async ({ input, context, db, services }) => {
  const { limit, cursor, ...filters } = input;
  const scope: CursorScope = { workspaceId: context.workspace_id, list: 'events', filters: { ...filters } };
  const before = cursor ? decodeCursor(services.secrets.cursorKey, scope, cursor) : undefined;
  const { type, object_id: objectId, actor_kind: actorKind, created_after: after, created_before: until } = filters;

  const rows = await db
    .selectFrom('events')
    .selectAll()
    .where(visibleEventsSql(db, context))
    .$if(type !== undefined && type.endsWith('.'), (q) => q.where('type', 'like', likePrefix(type!)))
    .$if(type !== undefined && !type.endsWith('.'), (q) => q.where('type', '=', type!))
    .$if(objectId !== undefined, (q) => q.where('object_id', '=', objectId!))
    .$if(actorKind !== undefined, (q) => q.where((eb) => eb(eb.ref('actor', '->>').key('kind'), '=', actorKind!)))
    .$if(after !== undefined, (q) => q.where('created_at', '>', new Date(after!).toISOString()))
    .$if(until !== undefined, (q) => q.where('created_at', '<', new Date(until!).toISOString()))
    .$if(before !== undefined, (q) => q.where(beforePosition(before!)))
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit + 1)
    .execute();
  return pageFrom(rows, limit, services.secrets.cursorKey, scope, toEventResource);
};

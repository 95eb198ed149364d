import { sql } from 'kysely';
import type { Event } from '../../../shared/contracts/events.js';
import { crossWorkspaceSql } from '../../../shared/db/cross-workspace-sql.js';
import type { EntityManager } from '../../../shared/db/orm.js';
import { toEventResource, type EventRow } from '../events/event-resource.js';

/** The oldest events still in the outbox, every workspace's, in the order they were made. */
export async function unpublishedEvents(em: EntityManager, limit: number): Promise<Event[]> {
  const rows = await sql<EventRow>`
    select e.* from event_outbox o join events e on e.id = o.event_id
    order by o.created_at, o.event_id
    limit ${limit}`.execute(crossWorkspaceSql(em, 'the relay publishes the outbox of every workspace'));
  return rows.rows.map(toEventResource);
}

/** Out of the outbox, once the stream has them. */
export async function markPublished(em: EntityManager, ids: string[]): Promise<void> {
  if (ids.length === 0) return;
  await sql`delete from event_outbox where event_id = any(${ids}::text[])`.execute(crossWorkspaceSql(em, 'the relay empties the outbox of every workspace'));
}

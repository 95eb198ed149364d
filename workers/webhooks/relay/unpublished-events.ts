import type { Event } from '../../../shared/contracts/events.js';
import { crossWorkspaceSql } from '../../../shared/db/cross-workspace-sql.js';
import type { EntityManager } from '../../../shared/db/orm.js';
import { toEventResource } from '../events/event-resource.js';

/** The oldest events not yet published, every workspace's, in the order they were made. */
export async function unpublishedEvents(em: EntityManager, limit: number): Promise<Event[]> {
  const rows = await crossWorkspaceSql(em, 'the relay publishes the outbox of every workspace')
    .selectFrom('events')
    .selectAll()
    .where('published_at', 'is', null)
    .orderBy('created_at')
    .orderBy('id')
    .limit(limit)
    .execute();
  return rows.map(toEventResource);
}

export async function markPublished(em: EntityManager, ids: string[]): Promise<void> {
  if (ids.length === 0) return;
  await crossWorkspaceSql(em, 'the relay marks what it published, in every workspace')
    .updateTable('events')
    .set({ published_at: new Date() })
    .where('id', 'in', ids)
    .execute();
}

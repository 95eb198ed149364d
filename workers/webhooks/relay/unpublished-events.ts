import { sql } from 'kysely';
import type { Event } from '../../../shared/contracts/events.js';
import { crossWorkspaceSql } from '../../../shared/db/cross-workspace-sql.js';
import type { EntityManager } from '../../../shared/db/orm.js';
import { toEventResource, type EventRow } from '../events/event-resource.js';

/** Where the relay of a namespace got to: the writing transaction and id of the last event it published. */
export interface RelayPosition {
  xid: string;
  eventId: string;
}

export const START: RelayPosition = { xid: '0', eventId: '' };

export async function relayPosition(em: EntityManager, name: string): Promise<RelayPosition> {
  const rows = await sql<{ xid: string; event_id: string }>`select xid::text as xid, event_id from event_relay_positions where name = ${name}`.execute(
    crossWorkspaceSql(em, 'the relay position spans every workspace'),
  );
  const row = rows.rows[0];
  return row ? { xid: row.xid, eventId: row.event_id } : START;
}

export async function saveRelayPosition(em: EntityManager, name: string, position: RelayPosition): Promise<void> {
  await sql`
    insert into event_relay_positions (name, xid, event_id, updated_at) values (${name}, ${position.xid}::xid8, ${position.eventId}, now())
    on conflict (name) do update set xid = excluded.xid, event_id = excluded.event_id, updated_at = excluded.updated_at`.execute(
    crossWorkspaceSql(em, 'the relay position spans every workspace'),
  );
}

/**
 * The next events after `position`, every workspace's, in the order of their transactions:
 * only those of transactions older than every one still running, so an event that commits
 * late can never land behind the position.
 */
export async function eventsAfter(em: EntityManager, position: RelayPosition, limit: number): Promise<{ events: Event[]; last: RelayPosition | null }> {
  const rows = await sql<EventRow & { xid_text: string }>`
    select *, xid::text as xid_text from events
    where (xid, id) > (${position.xid}::xid8, ${position.eventId})
      and xid < pg_snapshot_xmin(pg_current_snapshot())
    order by xid, id
    limit ${limit}`.execute(crossWorkspaceSql(em, 'the relay publishes the outbox of every workspace'));
  const last = rows.rows.at(-1);
  return { events: rows.rows.map(toEventResource), last: last ? { xid: last.xid_text, eventId: last.id } : null };
}

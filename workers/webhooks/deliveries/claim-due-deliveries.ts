import { sql } from 'kysely';
import { crossWorkspaceSql } from '../../../shared/db/cross-workspace-sql.js';
import type { EntityManager } from '../../../shared/db/orm.js';
import type { WebhookDeliveryRow } from './delivery-resource.js';
import type { ClaimRooms } from './in-flight-shares.js';

/** How many due deliveries a claim looks at for each one it may take: enough to find other workspaces behind one's backlog. */
const LOOKED_AT_PER_TAKEN = 8;

/** A delivery a claim took, and how long its lease has left by the database's clock when it was taken. */
export interface ClaimedDelivery {
  row: WebhookDeliveryRow;
  /** Measured in SQL (leased_until - now()): the lease's end is the database's time, and this copy's clock may be off. */
  leaseLeftMs: number;
}

/**
 * Takes up to `limit` due deliveries for this copy: rows locked by another copy's claim
 * are skipped (SKIP LOCKED), and each taken row's next attempt moves `leaseMs` ahead, so
 * no other copy takes it while it is being sent, and a copy that dies mid-send only
 * delays it until the lease ends.
 *
 * Fairly between workspaces: at most each workspace's and endpoint's room in this copy
 * (`rooms`), the workspaces in turn (each one's oldest first, then each one's second…);
 * those with no room left are not even looked at, so one workspace's backlog of deliveries
 * to endpoints that never answer cannot hide another's behind it.
 */
export async function claimDueDeliveries(em: EntityManager, limit: number, leaseMs: number, rooms: ClaimRooms): Promise<ClaimedDelivery[]> {
  if (limit <= 0) return [];
  const db = crossWorkspaceSql(em, 'the delivery loop sends the due deliveries of every workspace, each on its own workspace afterwards');
  const full = (held: Map<string, number>) => [...held].filter(([, room]) => room <= 0).map(([id]) => id);
  const { rows } = await sql<WebhookDeliveryRow & { lease_left_ms: string | number }>`
    with held_workspaces as (
      select * from unnest(${[...rooms.workspaces.keys()]}::text[], ${[...rooms.workspaces.values()]}::int[]) as h (workspace_id, room)
    ),
    held_endpoints as (
      select * from unnest(${[...rooms.endpoints.keys()]}::text[], ${[...rooms.endpoints.values()]}::int[]) as h (endpoint_id, room)
    ),
    due as (
      select d.id, d.workspace_id, d.endpoint_id, d.next_attempt_at from webhook_deliveries d
      where d.status = 'pending' and d.next_attempt_at <= now()
        and d.workspace_id <> all(${full(rooms.workspaces)}::text[]) and d.endpoint_id <> all(${full(rooms.endpoints)}::text[])
      order by d.next_attempt_at
      limit ${limit * LOOKED_AT_PER_TAKEN}::int
      for update skip locked
    ),
    ranked as (
      select due.id, due.next_attempt_at,
        row_number() over (partition by due.workspace_id order by due.next_attempt_at, due.id) as of_workspace,
        row_number() over (partition by due.endpoint_id order by due.next_attempt_at, due.id) as of_endpoint,
        coalesce(w.room, ${rooms.perWorkspace}::int) as workspace_room,
        coalesce(e.room, ${rooms.perEndpoint}::int) as endpoint_room
      from due left join held_workspaces w using (workspace_id) left join held_endpoints e using (endpoint_id)
    ),
    taken as (
      select id from ranked where of_workspace <= workspace_room and of_endpoint <= endpoint_room
      order by of_workspace, next_attempt_at
      limit ${limit}::int
    )
    update webhook_deliveries d
    set next_attempt_at = now() + make_interval(secs => ${leaseMs / 1000}), leased_until = now() + make_interval(secs => ${leaseMs / 1000})
    from taken where d.id = taken.id
    returning d.*, extract(epoch from d.leased_until - now()) * 1000 as lease_left_ms`.execute(db);
  return rows.map(({ lease_left_ms: leaseLeftMs, ...row }) => ({ row, leaseLeftMs: Number(leaseLeftMs) }));
}

/**
 * Gives back deliveries this copy took and never attempted (it is stopping, or they are over
 * their workspace's or endpoint's share of its slots): due now, so that another copy's next
 * look (or this one's, once a slot frees) sends them, not the end of their lease,
 * WEBHOOK_TIMEOUT plus 30 s later. Only while the lease is still the one this copy took:
 * another copy may have claimed one whose lease ended meanwhile.
 */
export async function handBackDeliveries(em: EntityManager, rows: readonly Pick<WebhookDeliveryRow, 'id' | 'leased_until'>[]): Promise<void> {
  const leased = rows.filter((r): r is typeof r & { leased_until: string } => r.leased_until !== null);
  if (leased.length === 0) return;
  const db = crossWorkspaceSql(em, 'a delivery loop gives back what it took and will not send now, of every workspace');
  await db
    .updateTable('webhook_deliveries')
    .set({ next_attempt_at: sql<string>`now()`, leased_until: null })
    .where('status', '=', 'pending')
    .where((eb) => eb.or(leased.map((r) => eb.and([eb('id', '=', r.id), eb('leased_until', '=', r.leased_until)]))))
    .execute();
}

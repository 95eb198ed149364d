import { sql } from 'kysely';
import { crossWorkspaceSql } from '../../../shared/db/cross-workspace-sql.js';
import type { EntityManager } from '../../../shared/db/orm.js';
import type { WebhookDeliveryRow } from './delivery-resource.js';

/**
 * Takes up to `limit` due deliveries for this copy: rows locked by another copy's claim
 * are skipped (SKIP LOCKED), and each taken row's next attempt moves `leaseMs` ahead, so
 * no other copy takes it while it is being sent, and a copy that dies mid-send only
 * delays it until the lease ends.
 */
export async function claimDueDeliveries(em: EntityManager, limit: number, leaseMs: number): Promise<WebhookDeliveryRow[]> {
  if (limit <= 0) return [];
  const db = crossWorkspaceSql(em, 'the delivery loop sends the due deliveries of every workspace, each on its own workspace afterwards');
  return db
    .updateTable('webhook_deliveries')
    .set(() => {
      const leaseEnd = sql<string>`now() + make_interval(secs => ${leaseMs / 1000})`;
      return { next_attempt_at: leaseEnd, leased_until: leaseEnd };
    })
    .where('id', 'in', (eb) =>
      eb
        .selectFrom('webhook_deliveries')
        .select('id')
        .where('status', '=', 'pending')
        .where('next_attempt_at', '<=', sql<string>`now()`)
        .orderBy('next_attempt_at')
        .limit(limit)
        .forUpdate()
        .skipLocked(),
    )
    .returningAll()
    .execute();
}

/**
 * Gives back deliveries this copy took and never attempted (it is stopping): due now, so that
 * another copy's next look (within a second) sends them, not the end of their lease,
 * WEBHOOK_TIMEOUT plus 30 s later. Only while the lease is still the one this copy took:
 * another copy may have claimed one whose lease ended meanwhile.
 */
export async function handBackDeliveries(em: EntityManager, rows: readonly Pick<WebhookDeliveryRow, 'id' | 'leased_until'>[]): Promise<void> {
  const leased = rows.filter((r): r is typeof r & { leased_until: string } => r.leased_until !== null);
  if (leased.length === 0) return;
  const db = crossWorkspaceSql(em, 'a stopping delivery loop gives back what it took of every workspace');
  await db
    .updateTable('webhook_deliveries')
    .set({ next_attempt_at: sql<string>`now()`, leased_until: null })
    .where('status', '=', 'pending')
    .where((eb) => eb.or(leased.map((r) => eb.and([eb('id', '=', r.id), eb('leased_until', '=', r.leased_until)]))))
    .execute();
}

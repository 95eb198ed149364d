import { MAX_WEBHOOK_ENDPOINTS } from '../../../shared/contracts/webhooks.js';
import type { WorkspaceSql } from '../../../shared/db/workspace-sql.js';
import { ConflictError } from '../../../shared/errors.js';
import { lockUntilTransactionEnds } from '../../../shared/db/transaction-lock.js';

/**
 * Refuses a new endpoint once the workspace has {@link MAX_WEBHOOK_ENDPOINTS}. Counted under a
 * lock per workspace held until the creation commits: two creations at the cap, each counting
 * before the other inserts, would otherwise both pass.
 */
export async function requireEndpointRoom(tx: WorkspaceSql): Promise<void> {
  await lockUntilTransactionEnds(tx.global, `crm webhook endpoints:${tx.workspaceId}`);
  const row = await tx
    .selectFrom('webhook_endpoints')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .executeTakeFirstOrThrow();
  const count = Number(row.n);
  if (count >= MAX_WEBHOOK_ENDPOINTS) {
    throw new ConflictError(
      `A workspace has at most ${MAX_WEBHOOK_ENDPOINTS} webhook endpoints, enabled or disabled, and this one has ${count}; delete one before creating another (an endpoint can receive several event types, or * for all).`,
    );
  }
}

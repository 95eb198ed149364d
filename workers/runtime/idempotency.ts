import { createHash } from 'node:crypto';
import { sql } from 'kysely';
import { canonicalJson } from '../../shared/canonical-json.js';
import { crossWorkspaceSql } from '../../shared/db/cross-workspace-sql.js';
import { workspaceSql } from '../../shared/db/workspace-sql.js';
import { IdempotencyKeyReusedError } from '../../shared/errors.js';
import type { EntityManager } from '../../shared/db/orm.js';
import type { Principal } from '../../shared/contracts/call-context.js';

/** How long a key replays its first response (24 hours, as documented in docs/api.md). */
export const IDEMPOTENCY_TTL_HOURS = 24;

/**
 * What a key is bound to: the operation, its input, and who called. A key is stored once per
 * workspace, so without the caller another token or member sending the same request with the
 * same key would be answered with the first caller's response, which the handler's own
 * checks (scopes of the parent record, `owned` visibility) never saw; now it is refused (409).
 * The input is hashed as canonical JSON: a retry that writes its keys (custom_fields) in
 * another order is the same request.
 */
export function fingerprintOf(subject: string, input: unknown, principal: Principal): string {
  const caller = principal.type === 'operator' ? 'operator' : `${principal.type}:${principal.id}`;
  return createHash('sha256').update(subject).update('\0').update(caller).update('\0').update(canonicalJson(input)).digest('hex');
}

/** "Older than the replay window", on a row's created_at. */
const EXPIRED = sql<boolean>`created_at < now() - ${sql.raw(`interval '${IDEMPOTENCY_TTL_HOURS} hours'`)}`;

/**
 * Runs `work` at most once per (workspace, key). The key row is inserted in the same
 * transaction as the work, so the response is stored exactly when the write commits.
 * A concurrent request with the same key waits on the row lock, then replays.
 */
export async function runIdempotent<T>(
  em: EntityManager,
  scope: { workspaceId: string; key: string; fingerprint: string },
  work: (tx: EntityManager) => Promise<T>,
): Promise<{ result: T; replayed: boolean }> {
  const { workspaceId, key, fingerprint } = scope;
  for (let attempt = 0; attempt < 3; attempt++) {
    const outcome = await em.transactional(async (tx) => {
      const db = workspaceSql(tx, workspaceId);
      const inserted = await db
        .insertInto('idempotency_keys')
        .values({ workspace_id: workspaceId, key, fingerprint, created_at: sql<string>`now()` })
        .onConflict((oc) => oc.doNothing())
        .returning('key')
        .execute();
      if (inserted.length === 1) {
        const result = await work(tx);
        await db.updateTable('idempotency_keys').set({ response: JSON.stringify(result) ?? null }).where('key', '=', key).execute();
        return { kind: 'done' as const, result, replayed: false };
      }
      const row = await db.selectFrom('idempotency_keys').select(['fingerprint', 'response', EXPIRED.as('expired')]).where('key', '=', key).forUpdate().executeTakeFirst();
      if (!row) return { kind: 'retry' as const };
      if (row.expired) {
        await db.deleteFrom('idempotency_keys').where('key', '=', key).execute();
        return { kind: 'retry' as const };
      }
      if (row.fingerprint !== fingerprint) throw new IdempotencyKeyReusedError();
      return { kind: 'done' as const, result: row.response as T, replayed: true };
    });
    if (outcome.kind === 'done') return { result: outcome.result, replayed: outcome.replayed };
  }
  throw new Error('idempotency key kept changing under us');
}

export async function purgeExpiredIdempotencyKeys(em: EntityManager): Promise<number> {
  // Maintenance: expired keys of every workspace go in one statement.
  const res = await crossWorkspaceSql(em, 'purge of expired keys across workspaces').deleteFrom('idempotency_keys').where(EXPIRED).executeTakeFirst();
  return Number(res.numDeletedRows);
}

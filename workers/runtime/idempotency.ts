import { createHash } from 'node:crypto';
import { IdempotencyKeyReusedError } from '../../shared/errors.js';
import type { EntityManager } from '../../shared/db/orm.js';

/** How long a key replays its first response (decisions.md: 24 hours). */
export const IDEMPOTENCY_TTL_HOURS = 24;

export function fingerprintOf(subject: string, input: unknown): string {
  return createHash('sha256').update(subject).update('\0').update(JSON.stringify(input)).digest('hex');
}

interface IdempotencyRow {
  fingerprint: string;
  response: unknown;
  expired: boolean;
}

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
      const inserted = await tx.execute<{ key: string }[]>(
        `insert into idempotency_keys (workspace_id, key, fingerprint, created_at)
         values (?, ?, ?, now()) on conflict do nothing returning key`,
        [workspaceId, key, fingerprint],
      );
      if (inserted.length === 1) {
        const result = await work(tx);
        await tx.execute('update idempotency_keys set response = ? where workspace_id = ? and key = ?', [
          JSON.stringify(result),
          workspaceId,
          key,
        ]);
        return { kind: 'done' as const, result, replayed: false };
      }
      const rows = await tx.execute<IdempotencyRow[]>(
        `select fingerprint, response, created_at < now() - interval '${IDEMPOTENCY_TTL_HOURS} hours' as expired
         from idempotency_keys where workspace_id = ? and key = ? for update`,
        [workspaceId, key],
      );
      const row = rows[0];
      if (!row) return { kind: 'retry' as const };
      if (row.expired) {
        await tx.execute('delete from idempotency_keys where workspace_id = ? and key = ?', [workspaceId, key]);
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
  const res = await em.execute<{ affectedRows: number }>(
    `delete from idempotency_keys where created_at < now() - interval '${IDEMPOTENCY_TTL_HOURS} hours'`,
    [],
    'run',
  );
  return res.affectedRows;
}

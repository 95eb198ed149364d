import type { Pipeline } from '../../shared/contracts/pipelines.js';
import { isoTimestamp } from '../../shared/db/sql.js';
import type { WorkspaceSql } from '../../shared/db/workspace-sql.js';
import { loadPipeline } from './pipeline-resource.js';
import { lockUntilTransactionEnds } from '../../shared/db/transaction-lock.js';

/** A pipeline that stopped being the default, as it was and as it is. */
export interface ClearedDefault {
  before: Pipeline;
  after: Pipeline;
}

/**
 * Only one pipeline is the default: before `nextId` becomes it, the previous one stops being
 * it (same transaction), and the caller records pipeline.updated for it so the feed sees the
 * change. Switches queue per workspace until commit: otherwise two of them each clear the
 * default they saw and both set theirs, which pipelines_one_default_key refuses with a 500.
 */
export async function clearDefaultPipeline(tx: WorkspaceSql, nextId: string): Promise<ClearedDefault | null> {
  await lockUntilTransactionEnds(tx.global, `crm default pipeline:${tx.workspaceId}`);
  // Read after the lock: a switch that committed meanwhile is seen. At most one (the unique index).
  const current = await tx.selectFrom('pipelines').select('id').where('is_default', '=', true).where('id', '!=', nextId).executeTakeFirst();
  if (!current) return null;
  const before = await loadPipeline(tx, current.id);
  const row = await tx
    .updateTable('pipelines')
    .set({ is_default: false, updated_at: new Date() })
    .where('id', '=', current.id)
    .returning('updated_at')
    .executeTakeFirstOrThrow();
  return { before, after: { ...before, is_default: false, updated_at: isoTimestamp(row.updated_at) } };
}

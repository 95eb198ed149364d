import type { getWorkspaceSettings, updateWorkspaceSettings, WorkspaceSettings } from '../../shared/contracts/workspace-settings.js';
import type { WorkspaceSql } from '../../shared/db/workspace-sql.js';
import type { OperationHandler } from '../runtime/worker-call.js';

/**
 * `lock`: held until the write commits, so the event's previous values are the ones it replaced.
 * FOR NO KEY UPDATE, as the update itself takes: FOR UPDATE would also wait for, and then hold
 * off, every insert in the workspace (their foreign keys take FOR KEY SHARE on this row).
 */
async function loadSettings(db: WorkspaceSql, options: { lock?: boolean } = {}): Promise<WorkspaceSettings> {
  const row = await db.global
    .selectFrom('workspaces')
    .select(['id', 'name', 'default_country', 'time_zone'])
    .where('id', '=', db.workspaceId)
    .$if(options.lock === true, (q) => q.forNoKeyUpdate())
    .executeTakeFirstOrThrow();
  return { object: 'workspace', ...row };
}

export const getWorkspaceSettingsHandler: OperationHandler<typeof getWorkspaceSettings> = async ({ db }) => loadSettings(db);

/** Only the settings given change; the change is recorded as workspace.updated. */
export const updateWorkspaceSettingsHandler: OperationHandler<typeof updateWorkspaceSettings> = async ({ input, db, events }) => {
  // Locked before it is read: an update waiting for another's would otherwise claim the other's changes as its own.
  const before = await loadSettings(db, { lock: true });
  const changes = Object.fromEntries(Object.entries(input).filter(([, value]) => value !== undefined));
  if (Object.keys(changes).length === 0) return before;
  await db.global
    .updateTable('workspaces')
    .set({ ...changes, updated_at: new Date() })
    .where('id', '=', db.workspaceId)
    .execute();
  const after = await loadSettings(db);
  await events.record({ type: 'workspace.updated', object: after, previous: before });
  return after;
};

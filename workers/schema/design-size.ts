import { sql } from 'kysely';
import { DESIGN_MAX_BYTES } from '../../shared/contracts/schema.js';
import type { WorkspaceSql } from '../../shared/db/workspace-sql.js';
import { ConflictError } from '../../shared/errors.js';

const rowsJsonBytes = (alias: string) => sql<number>`coalesce(sum(octet_length(row_to_json(${sql.table(alias)})::text)), 0)::int`.as('bytes');

/**
 * Refuses, in the write's transaction (so it rolls back), a change after which the design no
 * longer fits DESIGN_MAX_BYTES. Called after the writes that can grow it by more than a name.
 */
export async function refuseDesignPastLimit(db: WorkspaceSql): Promise<void> {
  const fields = await db.selectFrom('custom_fields as f').select(rowsJsonBytes('f')).where('f.archived_at', 'is', null).executeTakeFirstOrThrow();
  const pipelines = await db.selectFrom('pipelines as p').select(rowsJsonBytes('p')).executeTakeFirstOrThrow();
  const stages = await db.selectFrom('stages as s').select(rowsJsonBytes('s')).executeTakeFirstOrThrow();
  const bytes = fields.bytes + pipelines.bytes + stages.bytes;
  if (bytes <= DESIGN_MAX_BYTES) return;
  throw new ConflictError(
    `The workspace's design (its active custom fields, pipelines and stages) would take ${Math.ceil(bytes / 1000)} KB, and it may take at most ${DESIGN_MAX_BYTES / 1000} KB, ` +
      'so that every read of it fits in one answer. Use fewer or shorter select options, or archive custom fields no longer used.',
  );
}

import type { WorkspaceSql } from '../../../shared/db/workspace-sql.js';
import { NotFoundError } from '../../../shared/errors.js';
import type { WebhookEndpointRow } from './endpoint-resource.js';

/** One endpoint of the workspace, locked until the write commits when `forUpdate`; else a 404. */
export async function findEndpoint(db: WorkspaceSql, id: string, options: { forUpdate?: boolean } = {}): Promise<WebhookEndpointRow> {
  const row = await db
    .selectFrom('webhook_endpoints')
    .selectAll()
    .where('id', '=', id)
    .$if(options.forUpdate === true, (q) => q.forUpdate())
    .executeTakeFirst();
  if (!row) throw new NotFoundError('webhook endpoint', id, 'id');
  return row;
}

import type { listWebhookEndpoints } from '../../../shared/contracts/webhooks.js';
import { decodeCursor, pageFrom, type CursorScope } from '../../runtime/keyset-cursor.js';
import { afterPosition } from '../../runtime/keyset-sql.js';
import type { OperationHandler } from '../../runtime/worker-call.js';
import { toWebhookEndpointResource } from './endpoint-resource.js';

/** Oldest first, like tokens: a short list an administrator reads top to bottom. */
export const listEndpointsHandler: OperationHandler<typeof listWebhookEndpoints> = async ({ input, context, db, services }) => {
  const scope: CursorScope = { workspaceId: context.workspace_id, list: 'webhook-endpoints', filters: {} };
  const after = input.cursor ? decodeCursor(services.secrets.cursorKey, scope, input.cursor) : undefined;
  const rows = await db
    .selectFrom('webhook_endpoints')
    .selectAll()
    .$if(after !== undefined, (q) => q.where(afterPosition(after!)))
    .orderBy('created_at')
    .orderBy('id')
    .limit(input.limit + 1)
    .execute();
  return pageFrom(rows, input.limit, services.secrets.cursorKey, scope, toWebhookEndpointResource);
};

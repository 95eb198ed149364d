import type { listWebhookDeliveries } from '../../../shared/contracts/webhooks.js';
import { decodeCursor, pageFrom, type CursorScope } from '../../runtime/keyset-cursor.js';
import { beforePosition } from '../../runtime/keyset-sql.js';
import type { OperationHandler } from '../../runtime/worker-call.js';
import { findEndpoint } from '../endpoints/find-endpoint.js';
import { attemptsOf } from './delivery-attempts.js';
import { toWebhookDeliveryResource } from './delivery-resource.js';

/** An endpoint's deliveries, newest first, each with its attempts; only those in `status` when given. */
export const listDeliveriesHandler: OperationHandler<typeof listWebhookDeliveries> = async ({ input, context, db, services }) => {
  await findEndpoint(db, input.endpoint_id);
  const scope: CursorScope = {
    workspaceId: context.workspace_id,
    list: 'webhook-deliveries',
    // Without a status, the filters of the cursors issued before there was one.
    filters: { endpoint_id: input.endpoint_id, ...(input.status === undefined ? {} : { status: input.status }) },
  };
  const before = input.cursor ? decodeCursor(services.secrets.cursorKey, scope, input.cursor) : undefined;
  const rows = await db
    .selectFrom('webhook_deliveries')
    .selectAll()
    .where('endpoint_id', '=', input.endpoint_id)
    .$if(input.status !== undefined, (q) => q.where('status', '=', input.status!))
    .$if(before !== undefined, (q) => q.where(beforePosition(before!)))
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(input.limit + 1)
    .execute();
  const attempts = await attemptsOf(db, rows.slice(0, input.limit).map((r) => r.id));
  return pageFrom(rows, input.limit, services.secrets.cursorKey, scope, (row) => toWebhookDeliveryResource(row, attempts.get(row.id) ?? []));
};

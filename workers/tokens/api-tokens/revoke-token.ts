import { encode } from '../../../shared/bus/codec.js';
import { eventSubjectOf } from '../../../shared/bus/bus-event.js';
import { TOKEN_REVOKED_EVENT } from '../../../shared/contracts/events.js';
import type { revokeToken } from '../../../shared/contracts/tokens.js';
import { NotFoundError } from '../../../shared/errors.js';
import type { OperationHandler } from '../../runtime/worker-call.js';
import { requireAdministrator } from '../members/grantable-scopes.js';
import { toTokenResource } from './token-resource.js';

/** Revokes a token of the caller's workspace. Revoking twice is harmless and keeps the first time. */
export const revokeTokenHandler: OperationHandler<typeof revokeToken> = async ({ input, context, em, db, services }) => {
  await requireAdministrator(em, context);
  const row = await db
    .updateTable('api_tokens')
    .set((eb) => ({ revoked_at: eb.fn.coalesce('revoked_at', eb.val(new Date())) }))
    .where('id', '=', input.id)
    .returningAll()
    .executeTakeFirst();
  if (!row) throw new NotFoundError('token', input.id, 'id');
  // Gateways drop the token from their caches at once; their short TTL covers a lost message.
  services.events.publish(eventSubjectOf(services.busNamespace, TOKEN_REVOKED_EVENT), encode({ token_id: row.id }));
  return toTokenResource(row);
};

import type { getToken } from '../../../shared/contracts/tokens.js';
import { NotFoundError } from '../../../shared/errors.js';
import type { OperationHandler } from '../../runtime/worker-call.js';
import { requireAdministrator } from '../members/grantable-scopes.js';
import { toTokenResource } from './token-resource.js';

export const getTokenHandler: OperationHandler<typeof getToken> = async ({ input, context, em, db }) => {
  await requireAdministrator(em, context);
  const row = await db.selectFrom('api_tokens').selectAll().where('id', '=', input.id).executeTakeFirst();
  if (!row) throw new NotFoundError('token', input.id, 'id');
  return toTokenResource(row);
};

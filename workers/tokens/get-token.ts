import type { getToken } from '../../shared/contracts/tokens.js';
import { sqlOf } from '../../shared/db/sql.js';
import { NotFoundError } from '../../shared/errors.js';
import type { OperationHandler } from '../runtime/worker-call.js';
import { requireAdministrator } from './grantable-scopes.js';
import { toTokenResource } from './token-resource.js';

export const getTokenHandler: OperationHandler<typeof getToken> = async ({ input, context, em }) => {
  await requireAdministrator(em, context);
  const row = await sqlOf(em).selectFrom('api_tokens').selectAll().where('workspace_id', '=', context.workspace_id).where('id', '=', input.id).executeTakeFirst();
  if (!row) throw new NotFoundError('token', input.id, 'id');
  return toTokenResource(row);
};

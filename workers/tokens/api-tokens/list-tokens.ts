import type { listTokens } from '../../../shared/contracts/tokens.js';
import { decodeCursor, pageFrom, type CursorScope } from '../../runtime/keyset-cursor.js';
import { afterPosition } from '../../runtime/keyset-sql.js';
import type { OperationHandler } from '../../runtime/worker-call.js';
import { requireAdministrator } from '../members/grantable-scopes.js';
import { toTokenResource } from './token-resource.js';

export const listTokensHandler: OperationHandler<typeof listTokens> = async ({ input, context, em, db, services }) => {
  await requireAdministrator(em, context);
  const includeRevoked = input.include_revoked === true;
  const scope: CursorScope = { workspaceId: context.workspace_id, list: 'tokens', filters: { include_revoked: includeRevoked } };
  const after = input.cursor ? decodeCursor(services.secrets.cursorKey, scope, input.cursor) : undefined;
  const rows = await db
    .selectFrom('api_tokens')
    .selectAll()
    .$if(!includeRevoked, (q) => q.where('revoked_at', 'is', null))
    .$if(after !== undefined, (q) => q.where(afterPosition(after!)))
    .orderBy('created_at')
    .orderBy('id')
    .limit(input.limit + 1)
    .execute();
  return pageFrom(rows, input.limit, services.secrets.cursorKey, scope, toTokenResource);
};

import type { describeToken } from '../../../shared/contracts/tokens.js';
import { isoTimestampOrNull } from '../../../shared/db/sql.js';
import { ForbiddenError, NotFoundError } from '../../../shared/errors.js';
import type { OperationHandler } from '../../runtime/worker-call.js';

/** GET /v1/me: the calling token, its workspace and organization, in one query. */
export const describeTokenHandler: OperationHandler<typeof describeToken> = async ({ context, db }) => {
  const { principal } = context;
  if (principal.type !== 'token') throw new ForbiddenError('Only an API token can describe itself.');
  const row = await db
    .selectFrom('api_tokens as t')
    .innerJoin('workspaces as w', 'w.id', 't.workspace_id')
    .innerJoin('organizations as o', 'o.id', 'w.organization_id')
    .select(['t.id', 't.name', 't.scopes', 't.created_by', 't.expires_at', 'w.id as workspace_id', 'w.name as workspace_name', 'o.id as organization_id', 'o.name as organization_name'])
    .where('t.id', '=', principal.id)
    .executeTakeFirst();
  if (!row) throw new NotFoundError('token', principal.id);
  return {
    object: 'token' as const,
    id: row.id,
    name: row.name,
    workspace: { id: row.workspace_id, name: row.workspace_name },
    organization: { id: row.organization_id, name: row.organization_name },
    scopes: row.scopes,
    created_by: row.created_by,
    expires_at: isoTimestampOrNull(row.expires_at),
  };
};

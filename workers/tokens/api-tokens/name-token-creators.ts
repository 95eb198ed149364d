import type { nameTokenCreators } from '../../../shared/contracts/tokens.js';
import type { OperationHandler } from '../../runtime/worker-call.js';
import { requireAdministrator } from '../members/grantable-scopes.js';

export const nameTokenCreatorsHandler: OperationHandler<typeof nameTokenCreators> = async ({ input, context, em, db }) => {
  await requireAdministrator(em, context);
  const ids = [...new Set(input.ids)];
  if (ids.length === 0) return { users: [], tokens: [] };
  // Users through the tokens they created here: an id that created none of them names no one.
  const users = await db.selectFrom('api_tokens as t').innerJoin('users as u', 'u.id', 't.created_by').where('t.created_by', 'in', ids).select(['u.id', 'u.email']).distinct().execute();
  const members = await db.selectFrom('memberships').where('user_id', 'in', ids).select('user_id').execute();
  const tokens = await db.selectFrom('api_tokens').where('id', 'in', ids).select(['id', 'name', 'revoked_at']).execute();
  const current = new Set(members.map((m) => m.user_id));
  return {
    users: users.map((u) => ({ id: u.id, email: u.email, member: current.has(u.id) })),
    tokens: tokens.map((t) => ({ id: t.id, name: t.name, revoked: t.revoked_at !== null })),
  };
};

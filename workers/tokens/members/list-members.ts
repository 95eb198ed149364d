import type { Permission } from '../../../shared/auth/permissions.js';
import type { getMember, listMembers, MemberRecord } from '../../../shared/contracts/members.js';
import { isoTimestamp } from '../../../shared/db/sql.js';
import { NotFoundError } from '../../../shared/errors.js';
import { decodeCursor, pageFrom, type CursorScope } from '../../runtime/keyset-cursor.js';
import { afterPosition } from '../../runtime/keyset-sql.js';
import { likeContaining } from '../../runtime/like-containing.js';
import type { OperationHandler } from '../../runtime/worker-call.js';
import { requireAdministrator } from './grantable-scopes.js';
import { memberRecords } from './member-record.js';

/** In the order they joined, (created_at, id) of the membership: stable however e-mails change. */
export const listMembersHandler: OperationHandler<typeof listMembers> = async ({ input, context, em, db, services }) => {
  await requireAdministrator(em, context);
  // Searches differing only in case match the same members, so a cursor continues either.
  const search = input.email_contains?.toLowerCase();
  const scope: CursorScope = { workspaceId: context.workspace_id, list: 'members', filters: search === undefined ? {} : { email_contains: search } };
  const after = input.cursor ? decodeCursor(services.secrets.cursorKey, scope, input.cursor) : undefined;
  const matching = likeContaining(search ?? '');
  const rows = await db
    .selectFrom('memberships as m')
    .innerJoin('users as u', 'u.id', 'm.user_id')
    .select(['m.id', 'u.id as user_id', 'u.email', 'm.permissions', 'm.visibility', 'm.created_at'])
    .$if(search !== undefined, (q) => q.where('u.email', 'ilike', matching))
    .$if(after !== undefined, (q) => q.where(afterPosition(after!, 'm')))
    .orderBy('m.created_at')
    .orderBy('m.id')
    .limit(input.limit + 1)
    .execute();
  const count = await db
    .selectFrom('memberships as m')
    .$if(search !== undefined, (q) => q.innerJoin('users as u', 'u.id', 'm.user_id').where('u.email', 'ilike', matching))
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .executeTakeFirstOrThrow();
  const page = pageFrom(rows, input.limit, services.secrets.cursorKey, scope, (r): MemberRecord => ({
    user_id: r.user_id,
    email: r.email,
    permissions: r.permissions as Permission[],
    visibility: r.visibility,
    created_at: isoTimestamp(r.created_at),
  }));
  return { ...page, total: Number(count.n) };
};

export const getMemberHandler: OperationHandler<typeof getMember> = async ({ input, context, em, db }) => {
  await requireAdministrator(em, context);
  const [member] = await memberRecords(db, input.user_id);
  if (!member) throw new NotFoundError('member', input.user_id, 'user_id');
  return member;
};

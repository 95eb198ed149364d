import type { MemberRecord, removeMember, updateMember } from '../../../shared/contracts/members.js';
import { ConflictError, NotFoundError } from '../../../shared/errors.js';
import type { WorkspaceSql } from '../../../shared/db/workspace-sql.js';
import type { OperationHandler } from '../../runtime/worker-call.js';
import { requireAdministrator } from './grantable-scopes.js';
import { agentEventObjects } from '../oauth/agent-event-object.js';
import { announceGrantChanged } from '../oauth/revoke-grant.js';
import { disownRecords } from './disown-records.js';
import { memberEventObject, memberRecords, otherAdministrators } from './member-record.js';

async function grantsOf(db: WorkspaceSql, userId: string): Promise<{ id: string; active: boolean }[]> {
  const rows = await db.selectFrom('oauth_grants').select(['id', 'revoked_at']).where('user_id', '=', userId).execute();
  return rows.map((r) => ({ id: r.id, active: r.revoked_at === null }));
}

/** The member as it is, locked until the change commits: its events name what changed. */
async function lockedMember(db: WorkspaceSql, userId: string): Promise<MemberRecord> {
  const locked = await db.selectFrom('memberships').select('id').where('user_id', '=', userId).forUpdate().executeTakeFirst();
  const [member] = locked ? await memberRecords(db, userId) : [];
  if (!member) throw new NotFoundError('member', userId, 'user_id');
  return member;
}

/** New permissions apply to the member's connected agents within seconds, not at their next token refresh. */
export const updateMemberHandler: OperationHandler<typeof updateMember> = async ({ input, context, em, db, events, services, afterCommit }) => {
  await requireAdministrator(em, context);
  const before = await lockedMember(db, input.user_id);
  if (!input.permissions.includes('configuration') && (await otherAdministrators(db, input.user_id)) === 0) {
    throw new ConflictError('The workspace needs at least one member with the Configuration permission.', 'permissions');
  }
  await db
    .updateTable('memberships')
    .set({ permissions: input.permissions, visibility: input.visibility, updated_at: new Date() })
    .where('user_id', '=', input.user_id)
    .execute();
  const member: MemberRecord = { ...before, permissions: input.permissions, visibility: input.visibility };
  await events.record({ type: 'member.updated', object: memberEventObject(db, member), previous: memberEventObject(db, before) });
  const grants = await grantsOf(db, input.user_id);
  afterCommit(() => grants.forEach((g) => announceGrantChanged(services, g.id)));
  return member;
};

/**
 * Removes a member. Their OAuth grants in the workspace go with the membership (foreign
 * key), and gateways are told once it is committed, so their connected agents stop within
 * seconds; records they owned become unowned, each with its `updated` event.
 */
export const removeMemberHandler: OperationHandler<typeof removeMember> = async ({ input, context, em, db, events, services, afterCommit }) => {
  await requireAdministrator(em, context);
  const member = await lockedMember(db, input.user_id);
  if ((await otherAdministrators(db, input.user_id)) === 0) {
    throw new ConflictError('The last member with the Configuration permission cannot be removed.', 'user_id');
  }
  const grants = await grantsOf(db, input.user_id);
  // Read before the delete takes them: each agent still connected ends with the membership.
  const agents = await agentEventObjects(db, grants.filter((g) => g.active).map((g) => g.id));
  // Before the membership goes: its foreign key would otherwise unset the owners without events.
  await disownRecords(db, events, input.user_id);
  await db.deleteFrom('memberships').where('user_id', '=', input.user_id).execute();
  const revokedAt = new Date().toISOString();
  await events.record(
    { type: 'member.removed', object: memberEventObject(db, member) },
    ...agents.map((agent) => ({ type: 'agent.revoked' as const, object: { ...agent, revoked_at: revokedAt }, previous: agent })),
  );
  afterCommit(() => grants.forEach((g) => announceGrantChanged(services, g.id)));
  return { removed: true };
};

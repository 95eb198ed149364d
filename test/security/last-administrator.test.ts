import t from 'tap';
import { ADMIN_PERMISSIONS, grantableScopes } from '../../shared/auth/permissions.js';
import type { CallContext } from '../../shared/contracts/call-context.js';
import { inviteMember, removeMember, updateMember } from '../../shared/contracts/members.js';
import { busAs } from '../helpers/bus-as.js';
import { whileHeld } from '../helpers/held-lock.js';
import { useStack } from '../helpers/shared-stack.js';

/**
 * A workspace always keeps a member with the Configuration permission: not by demoting or
 * removing two administrators at once, nor by running `crm users add` again with fewer
 * permissions. Two invitations of one address at once: one member, the other a 409.
 */
const stack = await useStack(t);
const gateway = await busAs(t, stack, 'gateway', { timeoutMs: 15_000 });

const contextOf = (workspaceId: string, userId: string): CallContext => ({
  workspace_id: workspaceId,
  principal: { type: 'user', id: userId, scopes: grantableScopes(ADMIN_PERMISSIONS) },
  visibility: 'all',
});
const administrators = async (workspaceId: string) =>
  (await stack.db.query<{ user_id: string }>(`select user_id from memberships where workspace_id = $1 and 'configuration' = any(permissions)`, [workspaceId])).map((r) => r.user_id);
/** What a concurrent change of another administrator holds until it commits: the workspace's administrators lock, and that member's row changed. */
const otherChange = (workspaceId: string, change: string, userId: string) => [
  { sql: `select pg_advisory_xact_lock(hashtextextended($1, 0))`, params: [`crm administrators:${workspaceId}`] },
  { sql: change, params: [workspaceId, userId] },
];

t.test('two administrators demoted at once: the second waits, then is refused', async (t) => {
  const ws = await stack.bootstrap();
  const other = await stack.addMember(ws.workspace.id, `second-${Date.now()}@example.test`, ADMIN_PERMISSIONS, 'all');
  const demote = `update memberships set permissions = '{contacts.read}' where workspace_id = $1 and user_id = $2`;
  const { result, waited } = await whileHeld(stack.db.url, otherChange(ws.workspace.id, demote, other), () =>
    gateway
      .call(updateMember, { user_id: ws.user.id, permissions: ['contacts.read'], visibility: 'all' }, { context: contextOf(ws.workspace.id, ws.user.id), requestId: 'req_demote_both' })
      .then(() => 'updated', (error: { code?: string }) => error.code),
  );
  t.ok(waited, 'the demotion waits for the other one');
  t.equal(result, 'conflict', 'then finds no other administrator');
  t.same(await administrators(ws.workspace.id), [ws.user.id], 'one administrator remains');
});

t.test('two administrators removed at once: the second waits, then is refused', async (t) => {
  const ws = await stack.bootstrap();
  const other = await stack.addMember(ws.workspace.id, `second-${Date.now()}@example.test`, ADMIN_PERMISSIONS, 'all');
  const remove = `delete from memberships where workspace_id = $1 and user_id = $2`;
  const { result, waited } = await whileHeld(stack.db.url, otherChange(ws.workspace.id, remove, other), () =>
    gateway
      .call(removeMember, { user_id: ws.user.id }, { context: contextOf(ws.workspace.id, ws.user.id), requestId: 'req_remove_both' })
      .then(() => 'removed', (error: { code?: string }) => error.code),
  );
  t.ok(waited, 'the removal waits for the other one');
  t.equal(result, 'conflict');
  t.same(await administrators(ws.workspace.id), [ws.user.id], 'one administrator remains');
});

t.test('crm users add cannot take Configuration from the last administrator', async (t) => {
  const ws = await stack.bootstrap();
  // As the command line calls it: the operator, signed.
  const demote = () => stack.addMember(ws.workspace.id, ws.user.email, ['contacts.read'], 'all');
  await t.rejects(demote(), { code: 'conflict' });
  t.same(await administrators(ws.workspace.id), [ws.user.id], 'still the administrator');

  const other = await stack.addMember(ws.workspace.id, `second-${Date.now()}@example.test`, ADMIN_PERMISSIONS, 'all');
  await demote();
  t.same(await administrators(ws.workspace.id), [other], 'with another administrator, the demotion is made');
});

t.test('the same address invited twice at once: one member, one 409', async (t) => {
  const ws = await stack.bootstrap();
  const context = contextOf(ws.workspace.id, ws.user.id);
  const email = `twice-${Date.now()}@example.test`;
  const invite = (n: number) =>
    gateway.call(inviteMember, { email, permissions: ['contacts.read'], visibility: 'all' }, { context, requestId: `req_invite_twice_${n}` }).then(
      () => 'invited',
      (error: { code?: string }) => error.code,
    );
  const outcomes = await Promise.all([invite(1), invite(2), invite(3)]);
  t.same(outcomes.filter((o) => o === 'invited'), ['invited'], 'one invitation made');
  t.same(outcomes.filter((o) => o !== 'invited'), ['conflict', 'conflict'], 'the others are told the address is a member');
  const members = await stack.db.query(`select 1 from memberships m join users u on u.id = m.user_id where m.workspace_id = $1 and u.email = $2`, [ws.workspace.id, email]);
  t.equal(members.length, 1);
});

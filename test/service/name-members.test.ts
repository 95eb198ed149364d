import t from 'tap';
import type { CallContext } from '../../shared/contracts/call-context.js';
import { nameMembers } from '../../shared/contracts/members.js';
import { busAs } from '../helpers/bus-as.js';
import { useStack } from '../helpers/shared-stack.js';

/**
 * The console names records' owners for members who are not administrators through
 * members.name. Only the console checked who may ask: an `owned` member, a token or an agent
 * holding contacts:read got every member's e-mail from the worker.
 */
const stack = await useStack(t);
const a = await stack.bootstrap({ org: 'Kessler Mail', workspace: 'Routes', email: `elaine-${Date.now()}@kessler-mail.test` });
const bus = await busAs(t, stack, 'gateway');
const reader = await stack.addMember(a.workspace.id, `kramer-${Date.now()}@kessler-mail.test`, ['contacts.read'], 'all');
const scopes: CallContext['principal']['scopes'] = ['contacts:read'];
const ask = (context: CallContext) => bus.call(nameMembers, {}, { context, requestId: 'req_name_members' }).then((r) => r.result);
const ws = a.workspace.id;

t.test('a signed-in member who sees the whole workspace gets its members named', async (t) => {
  const { members } = await ask({ workspace_id: ws, principal: { type: 'user', id: reader, scopes }, visibility: 'all' });
  t.ok(members.some((m) => m.user_id === a.user.id), 'the administrator among them');
});

t.test('an administrator gets them too, in one call, whatever the visibility and read scopes (the console names owners with it)', async (t) => {
  const admin = await stack.addMember(a.workspace.id, `newman-${Date.now()}@kessler-mail.test`, ['configuration'], 'owned');
  const { members } = await ask({ workspace_id: ws, principal: { type: 'user', id: admin, scopes: ['tokens:write'] }, visibility: 'owned' });
  t.same(new Set(members.map((m) => m.user_id)), new Set([a.user.id, reader, admin]), 'every member, named');
  await t.rejects(
    ask({ workspace_id: ws, principal: { type: 'user', id: admin, scopes: ['tokens:write'], grant_id: 'grant_x' }, visibility: 'owned' }),
    { code: 'forbidden' },
    'not through an agent',
  );
});

t.test('anyone else is refused, however many scopes they hold', async (t) => {
  for (const [who, context] of [
    ['an owned member', { workspace_id: ws, principal: { type: 'user', id: reader, scopes }, visibility: 'owned' }],
    ['an API token', { workspace_id: ws, principal: { type: 'token', id: 'tok_x', scopes }, visibility: 'all' }],
    ['an OAuth agent', { workspace_id: ws, principal: { type: 'user', id: reader, scopes, grant_id: 'grant_x' }, visibility: 'all' }],
  ] as const) {
    await t.rejects(ask(context), { code: 'forbidden' }, who);
  }
});

import t from 'tap';
import type { CallContext } from '../../shared/contracts/call-context.js';
import { listGrants } from '../../shared/contracts/grants.js';
import { listMembers } from '../../shared/contracts/members.js';
import { busAs } from '../helpers/bus-as.js';
import { authorizeWithForms, FormBrowser, pkce, registerClient, tokenRequest } from '../helpers/oauth-forms.js';
import { useStack } from '../helpers/shared-stack.js';
import { TEST_PASSWORD } from '../helpers/stack.js';

/**
 * members.list and oauth.list-grants (the console's Members and Connected agents pages) read
 * every row in one query, without a limit. They answer a page at a time, as the other lists
 * do: limit (default 25, at most 100), a keyset cursor bound to its list and filter, has_more,
 * and the total.
 */
const stack = await useStack(t);
const suffix = Date.now().toString(36);
const adminEmail = `lists-${suffix}@pages.test`;
const a = await stack.bootstrap({ org: 'Pages Inc', workspace: 'Lists', email: adminEmail });
const ws = a.workspace.id;
const repEmail = `rep-${suffix}@pages.test`;
const rep = await stack.addMember(ws, repEmail, ['contacts.read'], 'all');
for (const n of [1, 2]) await stack.addMember(ws, `m${n}-${suffix}@pages.test`, ['contacts.read'], 'all');
const bus = await busAs(t, stack, 'gateway');
const asUser = (id: string): CallContext => ({ workspace_id: ws, principal: { type: 'user', id, scopes: ['tokens:write', 'contacts:read'] }, visibility: 'all' });
const admin = asUser(a.user.id);
const members = (input: Parameters<typeof bus.call<typeof listMembers>>[1]) => bus.call(listMembers, input, { context: admin, requestId: 'req_list_members' }).then((r) => r.result);
const grants = (context: CallContext, input: Parameters<typeof bus.call<typeof listGrants>>[1]) => bus.call(listGrants, input, { context, requestId: 'req_list_grants' }).then((r) => r.result);

// Three agents: two of the administrator's, one of the member's.
const REDIRECT = 'http://127.0.0.1:9/callback';
for (const [name, email] of [['Admin one', adminEmail], ['Admin two', adminEmail], ['Rep one', repEmail]] as const) {
  const clientId = await registerClient(stack.baseUrl, REDIRECT, name);
  const { verifier, challenge } = pkce();
  const { code } = await authorizeWithForms({ baseUrl: stack.baseUrl, clientId, redirectUri: REDIRECT, server: 'crm', email, password: TEST_PASSWORD, challenge, browser: new FormBrowser() });
  const tokens = await tokenRequest(stack.baseUrl, { grant_type: 'authorization_code', code, redirect_uri: REDIRECT, client_id: clientId, code_verifier: verifier, resource: `${stack.baseUrl}/mcp/crm` });
  if (tokens.status !== 200) throw new Error(JSON.stringify(tokens.body));
}

t.test('members: a page at a time in the order they joined, with the total', async (t) => {
  const all = await members({});
  t.equal(all.limit, 25, 'the default page size of the other lists');
  t.equal(all.total, 4);
  t.equal(all.has_more, false);
  t.equal(all.next_cursor, null);
  t.equal(all.data[0]?.user_id, a.user.id, 'the administrator joined first');

  const first = await members({ limit: 3 });
  t.equal(first.data.length, 3);
  t.equal(first.has_more, true);
  t.equal(first.total, 4, 'the total whatever the page');
  const second = await members({ limit: 3, cursor: first.next_cursor ?? '' });
  t.equal(second.has_more, false);
  t.same([...first.data, ...second.data].map((m) => m.user_id), all.data.map((m) => m.user_id), 'the pages together: every member once, in order');
});

t.test('members: a bad limit or cursor is refused', async (t) => {
  await t.rejects(members({ limit: 101 }), { code: 'validation_failed' }, 'at most 100');
  await t.rejects(members({ limit: 0 }), { code: 'validation_failed' });
  const { next_cursor } = await members({ limit: 1 });
  await t.rejects(members({ limit: 1, cursor: `${next_cursor ?? ''}x` }), { code: 'invalid_cursor' }, 'an edited cursor');
  await t.rejects(grants(admin, { limit: 1, cursor: next_cursor ?? '' }), { code: 'invalid_cursor' }, 'a members cursor in the agents list');
});

t.test('connected agents: newest first a page at a time; a cursor only continues its own list', async (t) => {
  const all = await grants(admin, {});
  t.equal(all.limit, 25);
  t.equal(all.total, 3, 'an administrator sees every member’s');
  t.same(all.data.map((g) => g.client_name), ['Rep one', 'Admin two', 'Admin one'], 'newest first');
  const first = await grants(admin, { limit: 2 });
  t.same(first.data.map((g) => g.client_name), ['Rep one', 'Admin two']);
  t.equal(first.has_more, true);
  const second = await grants(admin, { limit: 2, cursor: first.next_cursor ?? '' });
  t.same(second.data.map((g) => g.client_name), ['Admin one']);
  t.equal(second.has_more, false);

  const own = await grants(asUser(rep), { limit: 1 });
  t.equal(own.total, 1, 'a member sees their own');
  t.same(own.data.map((g) => g.client_name), ['Rep one']);
  await t.rejects(grants(admin, { limit: 2, include_revoked: true, cursor: first.next_cursor ?? '' }), { code: 'invalid_cursor' }, 'bound to its filter');
  await t.rejects(grants(asUser(rep), { limit: 2, cursor: first.next_cursor ?? '' }), { code: 'invalid_cursor' }, 'an administrator’s cursor in a member’s list');
});

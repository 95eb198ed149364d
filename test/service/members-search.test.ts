import t from 'tap';
import type { CallContext } from '../../shared/contracts/call-context.js';
import { listMembers } from '../../shared/contracts/members.js';
import { busAs } from '../helpers/bus-as.js';
import { useStack } from '../helpers/shared-stack.js';

/**
 * members.list takes email_contains: the members whose e-mail contains it anywhere, in any
 * case, with % and _ literal, counted in total; a cursor continues only the search it came
 * from. The Members page had no search, so someone just invited was on its last page.
 */
const stack = await useStack(t);
const suffix = Date.now().toString(36);
const at = `${suffix}@roster-search.test`;
const a = await stack.bootstrap({ org: 'Roster Search Co', workspace: 'Roster', email: `boss-${at}` });
const ws = a.workspace.id;
const add = (local: string) => stack.addMember(ws, `${local}-${at}`, ['contacts.read'], 'all');
const jane = await add('jane.smith');
const john = await add('john.smithson');
const underscore = await add('under_score');
await add('underxscore');
await add('pctxoff');
// Another workspace's Smith is never listed here.
const other = await stack.bootstrap({ org: 'Roster Search Co', workspace: 'Roster elsewhere', email: `elsewhere-boss-${at}` });
await stack.addMember(other.workspace.id, `elsewhere.smith-${at}`, ['contacts.read'], 'all');

const bus = await busAs(t, stack, 'gateway');
const admin: CallContext = { workspace_id: ws, principal: { type: 'user', id: a.user.id, scopes: ['tokens:write'] }, visibility: 'all' };
const members = (input: Parameters<typeof bus.call<typeof listMembers>>[1]) => bus.call(listMembers, input, { context: admin, requestId: 'req_members_search' }).then((r) => r.result);
const ids = (page: { data: { user_id: string }[] }) => page.data.map((m) => m.user_id);

t.test('email_contains: anywhere in the e-mail, in any case, counted in total', async (t) => {
  t.equal((await members({})).total, 6, 'without a search, everyone');
  const smiths = await members({ email_contains: 'SMITH' });
  t.same(ids(smiths), [jane, john], 'in the order they joined, whatever the case');
  t.equal(smiths.total, 2, 'total counts the members that match');
  const domain = await members({ email_contains: `@Roster-Search.test`, limit: 2 });
  t.equal(domain.total, 6, 'a domain, after the @, matches');
  t.equal(domain.data.length, 2);
  const none = await members({ email_contains: 'nobody-here' });
  t.same(none.data, []);
  t.equal(none.total, 0);
  t.equal(none.next_cursor, null);
  t.same(ids(await members({ email_contains: '  smithson ' })), [john], 'surrounding spaces are not searched for');
});

t.test('email_contains: % and _ are literal, not wildcards', async (t) => {
  t.same(ids(await members({ email_contains: 'r_s' })), [underscore], '_ matches only an underscore');
  // An e-mail address holds no %, so a % in the search matches nothing at all.
  t.same(ids(await members({ email_contains: 't%o' })), [], '% matches only a percent sign');
  const all = await members({ email_contains: '%' });
  t.same(ids(all), [], 'a lone % is not "everything"');
  t.equal(all.total, 0);
  t.same(ids(await members({ email_contains: '\\' })), [], 'a backslash is literal too');
  // Were the backslash not escaped, 'r\\_s' would be the pattern r_s, which the under_score member matches.
  t.same(ids(await members({ email_contains: 'r\\_s' })), [], 'a backslash before _ is a backslash, not an escape');
});

t.test('email_contains: a cursor continues only its own search', async (t) => {
  const first = await members({ email_contains: 'smith', limit: 1 });
  t.same(ids(first), [jane]);
  t.equal(first.total, 2);
  const cursor = first.next_cursor ?? '';
  t.ok(cursor, 'another page follows');
  const second = await members({ email_contains: 'smith', limit: 1, cursor });
  t.same(ids(second), [john], 'the same search goes on');
  t.equal(second.has_more, false);
  t.same(ids(await members({ email_contains: 'SMITH', limit: 1, cursor })), [john], 'the same search in another case is the same search');
  await t.rejects(members({ email_contains: 'smithson', limit: 1, cursor }), { code: 'invalid_cursor' }, 'not under another search');
  await t.rejects(members({ limit: 1, cursor }), { code: 'invalid_cursor' }, 'not without the search');
  const unfiltered = await members({ limit: 1 });
  await t.rejects(members({ email_contains: 'smith', limit: 1, cursor: unfiltered.next_cursor ?? '' }), { code: 'invalid_cursor' }, 'an unfiltered cursor is not one of a search');
});

t.test('email_contains: empty, blank or too long is refused', async (t) => {
  await t.rejects(members({ email_contains: '' }), { code: 'validation_failed' });
  await t.rejects(members({ email_contains: '   ' }), { code: 'validation_failed' });
  await t.rejects(members({ email_contains: 'x'.repeat(101) }), { code: 'validation_failed' }, 'at most 100 characters');
  t.equal((await members({ email_contains: 'x'.repeat(100) })).total, 0, '100 is allowed');
});

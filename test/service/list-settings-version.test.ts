import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import t from 'tap';
import type { AppliedRange } from '../../shared/contracts/created-range.js';
import type { Contact, Deal, ErrorBody, ListPage } from '../helpers/api-types.js';
import { client } from '../helpers/http.js';
import { useStack } from '../helpers/shared-stack.js';
import { startStack } from '../helpers/stack.js';

/**
 * Lists and counts read with the workspace settings (time zone, default country, active
 * custom fields) their worker last read, in one statement that Postgres refuses while
 * settings_version has moved on (workers/runtime/list-settings.ts). Each change below is
 * made by another process than the reading worker (the schema worker, or SQL), right after
 * a read warmed that worker's copy: the next read must show it, as if read afresh.
 */

const stack = await useStack(t);
const ws = await stack.bootstrap({ defaultCountry: 'US' });
const workspaceId = ws.workspace.id;
const token = await stack.token(workspaceId, ['contacts:write', 'deals:write', 'schema:write']);
const api = client(stack.baseUrl, token);
// Counts are tools only.
const tools = new Client({ name: 'list-settings-test', version: '1.0.0' });
await tools.connect(new StreamableHTTPClientTransport(new URL(`${stack.baseUrl}/mcp/crm`), { requestInit: { headers: { Authorization: `Bearer ${token}` } } }));
t.teardown(() => tools.close());
const count = async (name: 'count_contacts' | 'count_deals') => {
  const result = (await tools.callTool({ name, arguments: {} })) as { isError?: boolean; structuredContent?: Count; content?: { text?: string }[] };
  if (result.isError) throw new Error(result.content?.[0]?.text);
  return result.structuredContent as Count;
};

type ContactPage = ListPage<Contact> & { applied_range: AppliedRange };
type DealPage = ListPage<Deal> & { applied_range: AppliedRange };
type Count = { count: number; applied_range: AppliedRange };

const ok = <T>(res: { status: number; body: T }, status = 200): T => {
  if (res.status !== status) throw new Error(`${res.status}: ${JSON.stringify(res.body)}`);
  return res.body;
};
const contacts = async (query = '') => ok(await api.get<ContactPage>(`/v1/contacts?limit=100${query}`));
const deals = async () => ok(await api.get<DealPage>('/v1/deals?limit=100'));
const setTimeZone = (zone: string) => stack.db.query('update workspaces set time_zone = $2 where id = $1', [workspaceId, zone]);

t.test('an empty list, then the first rows: the echoed time zone follows a change made in SQL', async (t) => {
  t.equal((await contacts()).applied_range.time_zone, 'UTC', 'warms the contacts worker, with no rows');
  await setTimeZone('Asia/Tokyo');
  const empty = await contacts();
  t.equal(empty.data.length, 0);
  t.equal(empty.applied_range.time_zone, 'Asia/Tokyo', 'a page with no rows echoes the new zone too');
  ok(await api.post<Contact>('/v1/contacts', { first_name: 'Ada', phone: '+1 415 555 0101' }), 201);
  await setTimeZone('America/Los_Angeles');
  const page = await contacts('&created_within=today');
  t.equal(page.applied_range.time_zone, 'America/Los_Angeles');
  t.ok([7, 8].includes(new Date(page.applied_range.created_after!).getUTCHours()), 'today begins at midnight in Los Angeles');
  t.equal((await count('count_contacts')).applied_range.time_zone, 'America/Los_Angeles', 'a count too');
  await setTimeZone('UTC');
});

t.test('a contact field defined, archived, restored: every row shows the current keys at once', async (t) => {
  t.same((await contacts()).data[0]?.custom_fields, {}, 'warm, with no fields');
  const field = ok(await api.post<{ id: string }>('/v1/custom-fields', { object_type: 'contact', key: 'source', label: 'Source', type: 'text' }), 201);
  t.same((await contacts()).data[0]?.custom_fields, { source: null }, 'the new key, on a contact stored before it');
  ok(await api.send('PATCH', `/v1/custom-fields/${field.id}`, { body: { archived: true } }));
  t.same((await contacts()).data[0]?.custom_fields, {}, 'archived: gone');
  await stack.db.query('update custom_fields set archived_at = null where id = $1', [field.id]);
  t.same((await contacts()).data[0]?.custom_fields, { source: null }, 'restored in SQL: back');
});

t.test('deals: a field defined after a list warmed the deals worker shows on the next list and count', async (t) => {
  ok(await api.post<Deal>('/v1/deals', { name: 'First deal', stage: 'negotiation' }), 201);
  t.same((await deals()).data[0]?.custom_fields, {}, 'warm');
  ok(await api.post('/v1/custom-fields', { object_type: 'deal', key: 'region', label: 'Region', type: 'text' }), 201);
  t.same((await deals()).data[0]?.custom_fields, { region: null });
  await setTimeZone('Europe/Paris');
  t.equal((await deals()).applied_range.time_zone, 'Europe/Paris');
  t.equal((await count('count_deals')).applied_range.time_zone, 'Europe/Paris');
  await setTimeZone('UTC');
});

t.test('a filter read in the default country follows its change', async (t) => {
  // (415) 555-0101 is a US number; read in Great Britain it is not that contact's phone.
  t.equal((await contacts('&phone=' + encodeURIComponent('(415) 555-0101'))).data.length, 1, 'read in the US');
  await stack.db.query(`update workspaces set default_country = 'GB' where id = $1`, [workspaceId]);
  const res = await api.get<ContactPage | ErrorBody>(`/v1/contacts?limit=100&phone=${encodeURIComponent('(415) 555-0101')}`);
  t.ok(res.status === 400 || (res.body as ContactPage).data.length === 0, 'read in Great Britain: no longer that contact');
  await stack.db.query(`update workspaces set default_country = 'US' where id = $1`, [workspaceId]);
  t.equal((await contacts('&phone=' + encodeURIComponent('(415) 555-0101'))).data.length, 1, 'the US again');
});

t.test('a cursor issued with new settings is followed on a worker that still holds the old ones', async (t) => {
  // Two contacts workers share the queue: page 1 and page 2 of one list land on either.
  const two = await startStack({ workers: { contacts: 2 } });
  t.teardown(() => two.stop());
  const own = await two.bootstrap({ defaultCountry: 'US' });
  const ownApi = client(two.baseUrl, await two.token(own.workspace.id, ['contacts:write']));
  ok(await ownApi.post<Contact>('/v1/contacts', { first_name: 'Cursor one', phone: '+1 415 555 0131' }), 201);
  ok(await ownApi.post<Contact>('/v1/contacts', { first_name: 'Cursor two', phone: '+1 415 555 0132' }), 201);
  for (let i = 0; i < 10; i++) ok(await ownApi.get<ContactPage>('/v1/contacts')); // both workers warm, with UTC
  const zones = ['Asia/Tokyo', 'America/New_York', 'Europe/Berlin', 'Australia/Sydney', 'America/Denver', 'Asia/Kolkata', 'Africa/Cairo', 'Pacific/Auckland'];
  for (const zone of zones) {
    // Both workers now hold a stale copy; page 1 makes one of them read the new zone, and
    // its cursor carries the day read in it. Page 2 lands on the other worker half the time.
    await two.db.query('update workspaces set time_zone = $2 where id = $1', [own.workspace.id, zone]);
    const first = ok(await ownApi.get<ContactPage>('/v1/contacts?limit=1&created_within=today'));
    t.equal(first.applied_range.time_zone, zone);
    const next = first.links.next;
    if (!next) {
      t.fail('page 1 has a next page');
      break;
    }
    const second = await ownApi.get<ContactPage | ErrorBody>(next.slice(next.indexOf('/v1/')));
    t.equal(second.status, 200, `page 2 in ${zone}: ${JSON.stringify(second.body).slice(0, 200)}`);
  }
});

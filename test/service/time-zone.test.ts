import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import t from 'tap';
import type { AppliedRange } from '../../shared/contracts/created-range.js';
import type { WorkspaceSettings } from '../../shared/contracts/workspace-settings.js';
import type { Contact, Deal, ErrorBody, ListPage } from '../helpers/api-types.js';
import { signInToConsole } from '../helpers/console-forms.js';
import { client } from '../helpers/http.js';
import { useStack } from '../helpers/shared-stack.js';
import { TEST_PASSWORD } from '../helpers/stack.js';

/**
 * Anchored time: the workspace's time zone, set over REST and in the console; days and
 * relative ranges read in it, half-open, and echoed as applied_range. Expectations of
 * "this week" come from Postgres's own calendar (date_trunc at the zone) at the real now,
 * not from the service's helper.
 */

const stack = await useStack(t);
const LA = 'America/Los_Angeles';
const KIRITIMATI = 'Pacific/Kiritimati';
type ContactPage = ListPage<Contact> & { applied_range: AppliedRange };
type DealPage = ListPage<Deal> & { applied_range: AppliedRange };

async function workspace(timeZone?: string) {
  const ws = await stack.bootstrap({ defaultCountry: 'US' });
  const token = await stack.token(ws.workspace.id, ['contacts:write', 'deals:write', 'schema:write', 'events:read']);
  const api = client(stack.baseUrl, token);
  if (timeZone) {
    const set = await api.send<WorkspaceSettings>('PATCH', '/v1/workspace', { body: { time_zone: timeZone } });
    if (set.status !== 200) throw new Error(JSON.stringify(set.body));
  }
  const tools = new Client({ name: 'time-zone-test', version: '1.0.0' });
  await tools.connect(new StreamableHTTPClientTransport(new URL(`${stack.baseUrl}/mcp/crm`), { requestInit: { headers: { Authorization: `Bearer ${token}` } } }));
  t.teardown(() => tools.close());
  // Listed first, as agents do: the client then checks every result against the tool's output schema.
  await tools.listTools();
  /** count_contacts' whole result. */
  const count = async (args: Record<string, unknown>) => {
    const result = (await tools.callTool({ name: 'count_contacts', arguments: args })) as { isError?: boolean; structuredContent?: { count: number; applied_range: AppliedRange }; content?: { text?: string }[] };
    if (result.isError) throw new Error(result.content?.[0]?.text);
    return result.structuredContent as { count: number; applied_range: AppliedRange };
  };
  return { id: ws.workspace.id, email: ws.user.email, api, tools, count };
}

/** Contacts created at the given instants (set directly: the API stamps the real now); their ids in that order. */
async function contactsAt(workspaceId: string, instants: string[]): Promise<string[]> {
  const rows = await stack.db.query<{ id: string }>(
    `insert into contacts (id, workspace_id, first_name, phone, status, custom_fields, created_at, updated_at)
     select 'con_TZ' || substr(md5(random()::text), 1, 16), $1, 'At ' || at, '+1650' || lpad((floor(random() * 9000000) + 1000000)::text, 7, '0'), 'active', '{}', at, at
     from unnest($2::timestamptz[]) with ordinality as u(at, n) order by n
     returning id`,
    [workspaceId, instants],
  );
  return rows.map((r) => r.id);
}

async function ids(api: ReturnType<typeof client>, path: string): Promise<{ ids: string[]; page: ContactPage }> {
  const res = await api.get<ContactPage | ErrorBody>(path);
  if (res.status !== 200) throw new Error(`${path}: ${res.status} ${JSON.stringify(res.body)}`);
  const page = res.body as ContactPage;
  return { ids: page.data.map((c) => c.id), page };
}

t.test('the time zone is a workspace setting: read, changed, refused when unknown', async (t) => {
  const ws = await workspace();
  const other = await workspace();
  const initial = await ws.api.get<WorkspaceSettings>('/v1/workspace');
  t.equal(initial.status, 200);
  t.same({ ...initial.body, id: undefined, name: undefined }, { object: 'workspace', id: undefined, name: undefined, default_country: 'US', time_zone: 'UTC' }, 'UTC by default');

  const changed = await ws.api.send<WorkspaceSettings>('PATCH', '/v1/workspace', { body: { time_zone: 'america/los_angeles' } });
  t.equal(changed.status, 200);
  t.equal(changed.body.time_zone, LA, 'stored in its canonical spelling');
  t.equal(changed.body.default_country, 'US', 'the other setting stays');
  t.equal((await ws.api.get<WorkspaceSettings>('/v1/workspace')).body.time_zone, LA);
  t.equal((await other.api.get<WorkspaceSettings>('/v1/workspace')).body.time_zone, 'UTC', 'another workspace keeps its own');

  for (const zone of ['Mars/Olympus_Mons', '+01:00', 'EST5EDT; drop table contacts', '', 'x'.repeat(80)]) {
    const refused = await ws.api.send<ErrorBody>('PATCH', '/v1/workspace', { body: { time_zone: zone } });
    t.equal(refused.status, 400, `"${zone.slice(0, 20)}" is refused`);
    t.equal(refused.body.error.param, 'time_zone');
    t.match(refused.body.error.message, /e\.g\. Europe\/Paris/, 'the message gives an example');
  }
  const country = await ws.api.send<ErrorBody>('PATCH', '/v1/workspace', { body: { default_country: 'USA' } });
  t.equal(country.status, 400);
  t.equal(country.body.error.param, 'default_country');
  for (const code of ['UK', 'ZZ']) {
    // Two letters, but no country's: every phone without a country code would then be refused.
    const notACountry = await ws.api.send<ErrorBody>('PATCH', '/v1/workspace', { body: { default_country: code } });
    t.equal(notACountry.status, 400, `${code} is refused`);
    t.match(notACountry.body.error, { param: 'default_country', message: /GB \(not UK\)/ });
  }
  const unknown = await ws.api.send<ErrorBody>('PATCH', '/v1/workspace', { body: { name: 'Renamed' } });
  t.equal(unknown.status, 400, 'unknown fields are refused');
  t.equal((await ws.api.get<WorkspaceSettings>('/v1/workspace')).body.time_zone, LA, 'nothing changed');

  const reader = client(stack.baseUrl, await stack.token(ws.id, ['contacts:read', 'events:read']));
  t.equal((await reader.get<WorkspaceSettings>('/v1/workspace')).body.time_zone, LA, 'any token reads it');
  const forbidden = await reader.send<ErrorBody>('PATCH', '/v1/workspace', { body: { time_zone: 'UTC' } });
  t.equal(forbidden.status, 403);
  t.equal(forbidden.body.error.required_scope, 'schema:write');

  const events = await ws.api.get<ListPage<{ type: string; data: { object: WorkspaceSettings; previous_attributes: Record<string, unknown> } }>>('/v1/events?type=workspace.updated');
  t.equal(events.body.data.length, 1, 'one change, one event (refusals store none)');
  t.equal(events.body.data[0]?.data.object.time_zone, LA);
  t.same(events.body.data[0]?.data.previous_attributes, { time_zone: 'UTC' });
});

t.test('a zone is stored under its current IANA name, whatever alias or case it was given as', async (t) => {
  const ws = await workspace();
  const set = async (zone: string) => (await ws.api.send<WorkspaceSettings>('PATCH', '/v1/workspace', { body: { time_zone: zone } })).body.time_zone;
  t.equal(await set('Asia/Kolkata'), 'Asia/Kolkata', 'not the name ICU still uses (Asia/Calcutta)');
  t.equal(await set('asia/calcutta'), 'Asia/Kolkata', 'an old name gives the current one');
  t.equal(await set('Europe/Kyiv'), 'Europe/Kyiv');
  t.equal(await set('US/Pacific'), LA, 'a deprecated alias gives its zone');
  const country = await ws.api.send<WorkspaceSettings>('PATCH', '/v1/workspace', { body: { default_country: ' gb ' } });
  t.equal(country.body.default_country, 'GB', 'a country code in any case is stored in capitals');
  const page = (await ws.api.get<ContactPage>('/v1/contacts?created_after=2026-01-31')).body;
  t.same(page.applied_range, { created_after: '2026-01-31T08:00:00.000Z', created_before: null, time_zone: LA });
});

t.test("agents are told today's date in the workspace time zone, not only the UTC instant", async (t) => {
  // At any hour one of these two is on another day than UTC (+14 from 10:00 UTC, -11 before 11:00 UTC).
  for (const zone of [KIRITIMATI, 'Pacific/Pago_Pago']) {
    const ws = await workspace(zone);
    const [local] = await stack.db.query<{ today: string; weekday: string }>(
      `select to_char(now() at time zone $1, 'YYYY-MM-DD') as today, trim(to_char(now() at time zone $1, 'FMDay')) as weekday`,
      [zone],
    );
    const who = (await ws.tools.callTool({ name: 'whoami', arguments: {} })) as { structuredContent?: { today?: string; time_zone: string } };
    t.equal(who.structuredContent?.today, local?.today, `whoami: today in ${zone}`);
    t.match(ws.tools.getInstructions() ?? '', `where today is ${local?.weekday} ${local?.today}`, `the instructions: today in ${zone}`);
  }
});

t.test('days are read in the workspace time zone; ranges are half-open', async (t) => {
  const ws = await workspace(LA);
  // January 31 begins at 08:00 UTC in Los Angeles.
  const [late30, start31, late31, start1] = await contactsAt(ws.id, ['2026-01-31T07:59:59.999Z', '2026-01-31T08:00:00Z', '2026-02-01T07:59:59.999Z', '2026-02-01T08:00:00Z']);
  const cases: [string, string[], AppliedRange][] = [
    ['created_after=2026-01-31', [start31!, late31!, start1!], { created_after: '2026-01-31T08:00:00.000Z', created_before: null, time_zone: LA }],
    ['created_before=2026-01-31', [late30!], { created_after: null, created_before: '2026-01-31T08:00:00.000Z', time_zone: LA }],
    ['created_after=2026-01-31&created_before=2026-02-01', [start31!, late31!], { created_after: '2026-01-31T08:00:00.000Z', created_before: '2026-02-01T08:00:00.000Z', time_zone: LA }],
    ['created_after=2026-01-31T08:00:00Z', [start31!, late31!, start1!], { created_after: '2026-01-31T08:00:00.000Z', created_before: null, time_zone: LA }],
    ['created_after=2026-01-31T00:00:00-08:00&created_before=2026-02-01T08:00:00Z', [start31!, late31!], { created_after: '2026-01-31T08:00:00.000Z', created_before: '2026-02-01T08:00:00.000Z', time_zone: LA }],
    ['created_after=2027-01-01', [], { created_after: '2027-01-01T08:00:00.000Z', created_before: null, time_zone: LA }],
    ['', [late30!, start31!, late31!, start1!], { created_after: null, created_before: null, time_zone: LA }],
  ];
  for (const [query, expected, range] of cases) {
    const { ids: found, page } = await ids(ws.api, `/v1/contacts?limit=2&${query}`);
    t.same(found, expected.slice(0, 2), `${query || 'no range'}: the first page`);
    t.same(page.applied_range, range, `${query || 'no range'}: the list echoes the range`);
    const args = Object.fromEntries(new URLSearchParams(query));
    const counted = await ws.count(args);
    t.equal(counted.count, expected.length, `${query || 'no range'}: counted`);
    t.same(counted.applied_range, range, `${query || 'no range'}: the count echoes the range`);
    if (expected.length > 2) {
      const next = await ws.api.get<ContactPage>(page.links.next ?? '');
      t.same(next.body.data.map((c) => c.id), expected.slice(2, 4), `${query}: the next page continues the range`);
    }
  }

  const deals = await stack.db.query<{ id: string }>(
    `insert into deals (id, workspace_id, name, pipeline_id, stage_id, custom_fields, created_at, updated_at)
     select 'deal_TZ' || n || substr(md5(random()::text), 1, 8), $1, 'Deal ' || n, p.id, s.id, '{}', at, at
     from unnest($2::timestamptz[]) with ordinality as u(at, n),
          lateral (select id from pipelines where workspace_id = $1 limit 1) p,
          lateral (select id from stages where workspace_id = $1 and pipeline_id = p.id order by position limit 1) s
     order by n returning id`,
    [ws.id, ['2026-01-31T07:59:59.999Z', '2026-01-31T08:00:00Z']],
  );
  const dealPage = await ws.api.get<DealPage>('/v1/deals?created_after=2026-01-31');
  t.same(dealPage.body.data.map((d) => d.id), [deals[1]?.id], 'deals: the day in the workspace time zone');
  t.same(dealPage.body.applied_range, { created_after: '2026-01-31T08:00:00.000Z', created_before: null, time_zone: LA }, 'deals echo the range');
  const before = await ws.api.get<DealPage>('/v1/deals?created_before=2026-01-31');
  t.same(before.body.data.map((d) => d.id), [deals[0]?.id]);
  const noDeals = await ws.api.get<DealPage>('/v1/deals?created_after=2027-01-01');
  t.same(noDeals.body.applied_range.time_zone, LA, 'an empty page still says its time zone');
});

t.test('bad ranges are 400s naming the parameter', async (t) => {
  const ws = await workspace(KIRITIMATI);
  for (const [query, param, message] of [
    ['created_after=2026-02-30', 'created_after', /calendar date/],
    // A period where a date goes: the parameter that takes periods.
    ['created_after=yesterday', 'created_after', /is a period, not a date: give it as created_within/],
    ['created_after=tomorrow', 'created_after', /YYYY-MM-DD/],
    ['created_before=2026-1-31', 'created_before', /YYYY-MM-DD/],
    ['created_within=last_year', 'created_within', /last_week/],
    ['created_within=today&created_after=2026-01-01', 'created_within', /cannot be combined/],
    ['created_within=last_week&created_before=2026-01-01T00:00:00Z', 'created_within', /cannot be combined/],
    ['created_after=2026-01-31&created_before=2026-01-31', 'created_before', /exclusive.*created_before 2026-02-01/],
    ['created_after=2026-02-01&created_before=2026-01-01', 'created_before', /exclusive/],
  ] as const) {
    for (const list of ['contacts', 'deals']) {
      const res = await ws.api.get<ErrorBody>(`/v1/${list}?${query}`);
      t.equal(res.status, 400, `${list}: ${query}`);
      t.equal(res.body.error.param, param);
      t.match(res.body.error.message, message);
    }
  }
  const tool = (await ws.tools.callTool({ name: 'count_contacts', arguments: { created_within: 'today', created_after: '2026-01-01' } })) as { isError?: boolean; content?: { text?: string }[] };
  t.equal(tool.isError, true, 'count_contacts refuses the combination too');
  t.match(tool.content?.[0]?.text, /created_within/);
  const sameDay = (await ws.tools.callTool({ name: 'find_deals', arguments: { created_after: '2026-01-31', created_before: '2026-01-31' } })) as { isError?: boolean; structuredContent?: { param?: string; message?: string } };
  t.equal(sameDay.isError, true, 'find_deals refuses an empty range');
  t.match(sameDay.structuredContent, { param: 'created_before', message: /created_before 2026-02-01/ });
});

/**
 * The start of the current and the previous week, month and day in `zone`, from Postgres's
 * calendar (Monday weeks, like ISO) at its now.
 */
async function calendar(zone: string) {
  const [row] = await stack.db.query<Record<string, Date>>(
    `select date_trunc('week', local) at time zone $1 as this_week,
            (date_trunc('week', local) - interval '7 days') at time zone $1 as last_week,
            (date_trunc('week', local) + interval '7 days') at time zone $1 as next_week,
            date_trunc('day', local) at time zone $1 as today,
            (date_trunc('day', local) - interval '1 day') at time zone $1 as yesterday,
            (date_trunc('day', local) + interval '1 day') at time zone $1 as tomorrow,
            (date_trunc('day', local) - interval '6 days') at time zone $1 as six_days_ago,
            date_trunc('month', local) at time zone $1 as this_month,
            (date_trunc('month', local) - interval '1 month') at time zone $1 as last_month,
            (date_trunc('month', local) + interval '1 month') at time zone $1 as next_month
     from (select now() at time zone $1 as local) as n`,
    [zone],
  );
  return Object.fromEntries(Object.entries(row ?? {}).map(([k, v]) => [k, v.toISOString()]));
}

for (const zone of [LA, KIRITIMATI]) {
  t.test(`created_within: last_week and the other ranges in ${zone}, around the real now`, async (t) => {
    const ws = await workspace(zone);
    const cal = await calendar(zone);
    const shift = (iso: string, ms: number) => new Date(Date.parse(iso) + ms).toISOString();
    // Just before, at and just after each end of last week.
    const [beforeLast, atLast, afterLast, endLast, atThis, afterThis] = await contactsAt(ws.id, [
      shift(cal.last_week!, -1),
      cal.last_week!,
      shift(cal.last_week!, 1_000),
      shift(cal.this_week!, -1),
      cal.this_week!,
      shift(cal.this_week!, 1_000),
    ]);
    const expected: Record<string, { after: string; before: string }> = {
      today: { after: cal.today!, before: cal.tomorrow! },
      yesterday: { after: cal.yesterday!, before: cal.today! },
      last_7_days: { after: cal.six_days_ago!, before: cal.tomorrow! },
      this_week: { after: cal.this_week!, before: cal.next_week! },
      last_week: { after: cal.last_week!, before: cal.this_week! },
      this_month: { after: cal.this_month!, before: cal.next_month! },
      last_month: { after: cal.last_month!, before: cal.this_month! },
    };
    for (const [within, range] of Object.entries(expected)) {
      const { page } = await ids(ws.api, `/v1/contacts?created_within=${within}`);
      // A week (or day) that ended between the two readings would make any answer look wrong: read again then.
      if ((await calendar(zone)).today !== cal.today) return t.comment('the day changed during the test: skipped');
      t.same(page.applied_range, { created_after: range.after, created_before: range.before, time_zone: zone }, `${within}: ${range.after} to ${range.before}`);
      t.same((await ws.count({ created_within: within })).applied_range, page.applied_range, `${within}: the count applies the same range`);
    }

    const { ids: lastWeek } = await ids(ws.api, '/v1/contacts?created_within=last_week');
    t.same(lastWeek, [atLast, afterLast, endLast], 'last week: from its first instant, up to the last millisecond before this week');
    t.notOk(lastWeek.includes(beforeLast!) || lastWeek.includes(atThis!), 'nothing from the week before or from this week');
    t.equal((await ws.count({ created_within: 'last_week' })).count, 3, 'counted alike');
    const { ids: thisWeek } = await ids(ws.api, '/v1/contacts?created_within=this_week&sort=newest_first');
    t.same(thisWeek, [afterThis, atThis].filter((id) => id !== undefined), 'this week, newest first');
    const found = (await ws.tools.callTool({ name: 'find_contacts', arguments: { created_within: 'last_week', limit: 10 } })) as { structuredContent?: { contacts: Contact[] } };
    t.same(found.structuredContent?.contacts.map((c) => c.id), lastWeek, 'find_contacts reads the same week');
    const deals = await ws.api.get<DealPage>('/v1/deals?created_within=last_week');
    t.same(deals.body.applied_range, { created_after: cal.last_week, created_before: cal.this_week, time_zone: zone }, 'deals: the same week');
  });
}

t.test('the console: an administrator sets the time zone; the overview shows it', async (t) => {
  const ws = await workspace();
  const forms = await signInToConsole(stack.baseUrl, ws.id, ws.email, TEST_PASSWORD);
  const page = `${stack.baseUrl}/console/w/${ws.id}`;
  const before = await (await forms.browser.request(`${page}/settings`)).text();
  t.match(before, /<option value="UTC" selected>/, 'the settings page shows the current zone');
  t.match(before, /<option value="Asia\/Kolkata" >/, 'zones under their current names');
  t.notMatch(before, /Asia\/Calcutta/, "not ICU's old ones, which the workspace would not store");

  const refused = await forms.post('/settings', { time_zone: 'Mars/Olympus_Mons', default_country: 'US' });
  t.equal(refused.status, 400);
  t.match(await refused.text(), /is not a time zone this service knows/);
  t.equal((await ws.api.get<WorkspaceSettings>('/v1/workspace')).body.time_zone, 'UTC', 'nothing changed');

  const saved = await forms.post('/settings', { time_zone: 'Europe/Paris', default_country: 'FR' });
  t.equal(saved.status, 303);
  t.same(
    { ...(await ws.api.get<WorkspaceSettings>('/v1/workspace')).body, id: undefined, name: undefined },
    { object: 'workspace', id: undefined, name: undefined, time_zone: 'Europe/Paris', default_country: 'FR' },
    'both settings changed',
  );
  t.match(await (await forms.browser.request(page)).text(), /Time zone: Europe\/Paris/, 'the overview says the time zone');

  // A member without Configuration may not.
  await stack.addMember(ws.id, `reader-${ws.id}@example.test`, ['contacts.read'], 'all');
  const reader = await signInToConsole(stack.baseUrl, ws.id, `reader-${ws.id}@example.test`, TEST_PASSWORD);
  t.equal((await reader.browser.request(`${page}/settings`)).status, 403);
  t.equal((await reader.post('/settings', { time_zone: 'UTC', default_country: '' })).status, 403);
  t.equal((await ws.api.get<WorkspaceSettings>('/v1/workspace')).body.time_zone, 'Europe/Paris', 'still');
});

t.test('the events feed: an instant finer than the millisecond bounds events as that exact instant would', async (t) => {
  const ws = await workspace(LA);
  // Two real contact.created events, moved to instants within one millisecond of each other
  // (created_at is kept to the millisecond; the bounds below fall inside those milliseconds).
  for (const [name, phone] of [['Early', '+16505550101'], ['Late', '+16505550102']] as const) {
    const made = await ws.api.send('POST', '/v1/contacts', { body: { first_name: name, phone } });
    if (made.status !== 201) throw new Error(JSON.stringify(made.body));
  }
  await stack.db.query(
    `update events set created_at = case when data->>'first_name' = 'Early' then '2026-03-10T12:00:00.000Z'::timestamptz else '2026-03-10T12:00:00.001Z'::timestamptz end
     where workspace_id = $1 and type = 'contact.created'`,
    [ws.id],
  );
  const feed = async (query: string) => {
    const res = await ws.api.get<ListPage<{ created_at: string }> | ErrorBody>(`/v1/events?type=contact.created&${query}`);
    t.equal(res.status, 200, `${query}: ${JSON.stringify(res.body)}`);
    return (res.body as ListPage<{ created_at: string }>).data.map((e) => e.created_at).sort();
  };
  // .000 is before .0005: an exclusive end truncated to .000 left it out.
  t.same(await feed('created_before=2026-03-10T12:00:00.0005Z'), ['2026-03-10T12:00:00.000Z'], 'created_before an instant');
  t.same(await feed('created_after=2026-03-10T11:00:00Z&created_before=2026-03-10T12:00:00.0005Z'), ['2026-03-10T12:00:00.000Z'], 'both instants');
  // .001 is after .0005: an exclusive start rounded up to .001 left it out.
  t.same(await feed('created_after=2026-03-10T12:00:00.0005Z&created_before=2026-03-11'), ['2026-03-10T12:00:00.001Z'], 'an instant start with a day end');
  t.same(await feed('created_after=2026-03-10T12:00:00.0005Z'), ['2026-03-10T12:00:00.001Z'], 'an instant start alone');
  // Rounded up, the last instant of year 9999 leaves it: a 400 naming the filter, as the lists give, not Postgres's refusal.
  const past = await ws.api.get<ErrorBody>(`/v1/events?created_before=${encodeURIComponent('9999-12-31T23:59:59.9995Z')}`);
  t.equal(past.status, 400, JSON.stringify(past.body));
  t.equal(past.body.error.param, 'created_before');
  t.match(past.body.error.message, /outside the years 0001 to 9999/);
});

import t from 'tap';
import { client } from '../helpers/http.js';
import { useStack } from '../helpers/shared-stack.js';
import type { ListPage, Pipeline } from '../helpers/api-types.js';

/**
 * Every filter of the contact and deal lists, paged through links.next at a small page
 * size, against a direct SQL query for the same rows written independently here.
 */

const stack = await useStack(t);
const ws = await stack.bootstrap({ defaultCountry: 'US' });
const other = await stack.bootstrap({ defaultCountry: 'US' });
const api = client(stack.baseUrl, await stack.token(ws.workspace.id, ['contacts:write', 'deals:write', 'schema:write']));
const W = ws.workspace.id;

// 240 contacts: statuses, names, e-mails and phones that overlap in prefixes, created one
// hour apart (several per timestamp, so the id must break ties).
const FIRST = ['Ada', 'Adam', 'Bea', 'Ben', 'Cy', 'Dana', '50%_Off', 'Émile'];
const LAST = ['Lovelace', 'Love', 'Smith', 'Smithers', null];
await stack.db.query(
  `insert into contacts (id, workspace_id, first_name, last_name, email, phone, status, custom_fields, created_at, updated_at)
   select 'con_F' || lpad(i::text, 4, '0'), $1,
          ($2::text[])[1 + i % 8], ($3::text[])[1 + i % 5],
          case when i % 4 = 0 then null else lower(($2::text[])[1 + i % 8]) || i || '@example.test' end,
          '+1' || (array['415','212','646'])[1 + i % 3] || '555' || lpad(i::text, 4, '0'),
          case when i % 5 = 0 then 'archived' else 'active' end, '{}',
          timestamptz '2026-01-01T00:00:00Z' + (i / 3) * interval '1 hour', now()
   from generate_series(1, 240) as i`,
  [W, FIRST, LAST],
);
await stack.db.query(
  `insert into contacts (id, workspace_id, first_name, phone, status, custom_fields, created_at, updated_at)
   select 'con_OTHER' || i, $1, 'Ada', '+1415555' || lpad(i::text, 4, '0'), 'active', '{}', timestamptz '2026-01-02', now()
   from generate_series(1, 20) as i`,
  [other.workspace.id],
);

const readAll = (path: string) => api.allPages<{ id: string }>(path);

async function sqlIds(table: string, where: string, params: unknown[]): Promise<string[]> {
  const rows = await stack.db.query<{ id: string }>(`select id from ${table} where workspace_id = $1 and (${where}) order by created_at, id`, [W, ...params]);
  return rows.map((r) => r.id);
}

const contactCases: [string, Record<string, string>, string, unknown[]][] = [
  ['no filter', {}, 'true', []],
  ['status=active', { status: 'active' }, "status = 'active'", []],
  ['status=archived', { status: 'archived' }, "status = 'archived'", []],
  ['created_after', { created_after: '2026-01-02T00:00:00Z' }, 'created_at >= $2', ['2026-01-02T00:00:00Z']],
  ['created_before (with offset)', { created_before: '2026-01-03T01:00:00+01:00' }, 'created_at < $2', ['2026-01-03T00:00:00Z']],
  ['created range', { created_after: '2026-01-02T05:00:00Z', created_before: '2026-01-03T05:00:00Z' }, 'created_at >= $2 and created_at < $3', ['2026-01-02T05:00:00Z', '2026-01-03T05:00:00Z']],
  ['email, any case', { email: 'ADA9@Example.TEST' }, "email = 'ada9@example.test'", []],
  ['phone in national format', { phone: '(415) 555-0003' }, "phone = '+14155550003'", []],
  ['phone with country code', { phone: '+1 212 555 0001' }, "phone = '+12125550001'", []],
  ['q: first-name prefix, any case', { q: 'ad' }, "lower(first_name) like 'ad%' or lower(last_name) like 'ad%' or email like 'ad%'", []],
  ['q: last-name prefix', { q: 'smith' }, "lower(first_name) like 'smith%' or lower(last_name) like 'smith%' or email like 'smith%'", []],
  ['q: e-mail prefix', { q: 'bea1' }, "email like 'bea1%'", []],
  ['q: phone digits', { q: '1646555' }, "phone like '+1646555%'", []],
  ['q: % and _ match literally', { q: '50%_' }, "first_name like '50\\%\\_%'", []],
  ['q: accents', { q: 'émi' }, "lower(first_name) like 'émi%'", []],
  ['q + status + created_after', { q: 'ada', status: 'active', created_after: '2026-01-02T00:00:00Z' }, "(lower(first_name) like 'ada%' or lower(last_name) like 'ada%' or email like 'ada%') and status = 'active' and created_at >= '2026-01-02T00:00:00Z'", []],
  ['nothing matches', { q: 'zzz' }, 'false', []],
];

t.test('contact filters against SQL, across pages', async (t) => {
  for (const [label, filters, where, params] of contactCases) {
    const query = new URLSearchParams({ limit: '7', ...filters }).toString();
    const { ids, pages } = await readAll(`/v1/contacts?${query}`);
    const expected = await sqlIds('contacts', where, params);
    t.same(ids, expected, `${label}: ${expected.length} contacts, in order`);
    if (expected.length > 7) t.ok(pages.length > 1, `${label}: more than one page`);
    for (const page of pages.slice(0, -1)) {
      const next = new URL(page.links.next ?? '');
      for (const [key, value] of Object.entries(filters)) t.equal(next.searchParams.get(key), value, `${label}: links.next carries ${key}`);
    }
  }
});

t.test('a cursor only continues the query it came from', async (t) => {
  const first = await api.get<ListPage<{ id: string }>>('/v1/contacts?limit=5&status=active');
  const cursor = new URL(first.body.links.next ?? '').searchParams.get('cursor') ?? '';
  const changed = await api.get<{ error: { code: string } }>(`/v1/contacts?limit=5&status=archived&cursor=${encodeURIComponent(cursor)}`);
  t.equal(changed.status, 400);
  t.equal(changed.body.error.code, 'invalid_cursor');
  const sameFilterOtherLimit = await api.get<ListPage<{ id: string }>>(`/v1/contacts?limit=9&status=active&cursor=${encodeURIComponent(cursor)}`);
  t.equal(sameFilterOtherLimit.status, 200, 'the page size may change between pages');
});

t.test('bad filter values are 400s naming the parameter', async (t) => {
  for (const [query, param] of [
    ['created_after=yesterday', 'created_after'],
    ['created_before=2026-13-01T00:00:00Z', 'created_before'],
    ['status=deleted', 'status'],
    ['phone=not-a-phone', 'phone'],
    ['q=', 'q'],
    ['email=' + 'x'.repeat(300), 'email'],
  ] as const) {
    const res = await api.get<{ error: { param: string } }>(`/v1/contacts?${query}`);
    t.equal(res.status, 400, query);
    t.equal(res.body.error.param, param);
  }
});

t.test('deal filters against SQL, across pages', async (t) => {
  const sales = (await api.get<{ data: Pipeline[] }>('/v1/pipelines')).body.data[0] as Pipeline;
  const partners = (await api.post<Pipeline>('/v1/pipelines', { name: 'Partners', stages: ['Intro', 'Negotiation', 'Signed'] })).body;
  const stages = [...sales.stages, ...partners.stages];
  const pipelineOf = new Map([...sales.stages.map((s) => [s.id, sales.id] as const), ...partners.stages.map((s) => [s.id, partners.id] as const)]);
  const contacts = (await stack.db.query<{ id: string }>('select id from contacts where workspace_id = $1 order by id limit 6', [W])).map((r) => r.id);
  await stack.db.query(
    `insert into deals (id, workspace_id, name, pipeline_id, stage_id, contact_id, custom_fields, created_at, updated_at)
     select 'deal_F' || lpad(i::text, 4, '0'), $1, 'Deal ' || i,
            ($2::text[])[1 + i % 8], ($3::text[])[1 + i % 8],
            case when i % 3 = 0 then null else ($4::text[])[1 + i % 6] end, '{}',
            timestamptz '2026-02-01T00:00:00Z' + (i / 2) * interval '30 minutes', now()
     from generate_series(1, 200) as i`,
    [W, stages.map((s) => pipelineOf.get(s.id)), stages.map((s) => s.id), contacts],
  );
  const negotiationIds = stages.filter((s) => s.name === 'Negotiation').map((s) => s.id);
  t.equal(negotiationIds.length, 2, 'two pipelines have a stage called Negotiation');

  const dealCases: [string, Record<string, string>, string, unknown[]][] = [
    ['no filter', {}, 'true', []],
    ['stage by id', { stage: sales.stages[1]?.id ?? '' }, 'stage_id = $2', [sales.stages[1]?.id]],
    ['stage by name, any case, every pipeline', { stage: 'negotiation' }, 'stage_id = any($2)', [negotiationIds]],
    ['stage by name within a pipeline', { stage: 'Negotiation', pipeline_id: partners.id }, 'stage_id = any($2) and pipeline_id = $3', [negotiationIds, partners.id]],
    ['pipeline_id', { pipeline_id: sales.id }, 'pipeline_id = $2', [sales.id]],
    ['contact_id', { contact_id: contacts[1] ?? '' }, 'contact_id = $2', [contacts[1]]],
    ['created_after', { created_after: '2026-02-02T00:00:00Z' }, 'created_at >= $2', ['2026-02-02T00:00:00Z']],
    ['created range + stage', { created_after: '2026-02-01T12:00:00Z', created_before: '2026-02-02T12:00:00Z', stage: 'Lead' }, "created_at >= '2026-02-01T12:00:00Z' and created_at < '2026-02-02T12:00:00Z' and stage_id = $2", [sales.stages[0]?.id]],
  ];
  for (const [label, filters, where, params] of dealCases) {
    const query = new URLSearchParams({ limit: '9', ...filters }).toString();
    const { ids, pages } = await readAll(`/v1/deals?${query}`);
    const expected = await sqlIds('deals', where, params);
    t.same(ids, expected, `${label}: ${expected.length} deals, in order`);
    t.ok(expected.length > 0, `${label}: the case selects something`);
    if (expected.length > 9) t.ok(pages.length > 1, `${label}: more than one page`);
  }
  const { ids: newest, pages: newestPages } = await readAll('/v1/deals?limit=9&sort=newest_first');
  t.same(newest, (await sqlIds('deals', 'true', [])).reverse(), 'sort=newest_first: every deal, newest first, paged');
  t.equal(new URL(newestPages[0]?.links.next ?? '').searchParams.get('sort'), 'newest_first', 'links.next carries the order');
  const unknownStage = await api.get<{ error: { code: string; param: string } }>('/v1/deals?stage=Negociation');
  t.equal(unknownStage.status, 404, 'a stage name that does not exist is a 404, not an empty list');
  t.equal(unknownStage.body.error.param, 'stage');
});

t.test('a stage name shared by many pipelines pages through links.next as given', async (t) => {
  // The cursor once held every stage id the name resolved to: with ~18 pipelines it passed the
  // 1,024 characters a cursor may have, and the service refused its own links.next.
  const pipelines: Pipeline[] = [];
  for (let i = 0; i < 30; i++) pipelines.push((await api.post<Pipeline>('/v1/pipelines', { name: `Region ${i}`, stages: ['Open', 'Closed Won'] })).body);
  const wonIds = pipelines.map((p) => p.stages[1]?.id ?? '');
  await stack.db.query(
    `insert into deals (id, workspace_id, name, pipeline_id, stage_id, custom_fields, created_at, updated_at)
     select 'deal_W' || lpad(i::text, 4, '0'), $1, 'Won ' || i, ($2::text[])[1 + i % 30], ($3::text[])[1 + i % 30], '{}',
            timestamptz '2026-03-01T00:00:00Z' + i * interval '1 minute', now()
     from generate_series(1, 90) as i`,
    [W, pipelines.map((p) => p.id), wonIds],
  );
  const { ids, pages } = await readAll('/v1/deals?stage=closed%20won&limit=7');
  t.same(ids, await sqlIds('deals', 'stage_id = any($2)', [wonIds]), 'every deal in a "Closed Won" stage, in order');
  t.equal(pages.length, 13, 'over 13 pages');
  const cursor = new URL(pages[0]?.links.next ?? '').searchParams.get('cursor') ?? '';
  t.ok(cursor.length < 200, `the cursor is short (${cursor.length} characters)`);
  const elsewhere = await api.get<{ error: { code: string } }>(`/v1/deals?stage=Open&limit=7&cursor=${encodeURIComponent(cursor)}`);
  t.equal(elsewhere.body.error.code, 'invalid_cursor', 'and still bound to its filters');
});

import t from 'tap';
import { client } from '../helpers/http.js';
import { useStack } from '../helpers/shared-stack.js';
import type { Contact, ListPage } from '../helpers/api-types.js';

const stack = await useStack(t);

const a = await stack.bootstrap({ defaultCountry: 'US' });
const b = await stack.bootstrap({ defaultCountry: 'US' });
const tokenA = await stack.token(a.workspace.id, ['contacts:read', 'contacts:write']);
const tokenB = await stack.token(b.workspace.id, ['contacts:read', 'contacts:write']);
const apiA = client(stack.baseUrl, tokenA);
const apiB = client(stack.baseUrl, tokenB);

/**
 * 1,000 contacts written straight to the database, ten per millisecond, so that many
 * rows share a created_at and the id has to break the tie.
 */
await stack.db.query(
  `insert into contacts (id, workspace_id, first_name, phone, status, custom_fields, created_at, updated_at)
   select 'con_seed' || lpad(i::text, 5, '0'), $1, 'Seed ' || i, '+1415' || lpad(i::text, 7, '0'), 'active', '{}',
          timestamptz '2026-01-01T00:00:00Z' + (i / 10) * interval '1 millisecond',
          timestamptz '2026-01-01T00:00:00Z'
   from generate_series(1, 1000) as i`,
  [a.workspace.id],
);

async function readAll(firstUrl: string, api = apiA): Promise<{ ids: string[]; pages: ListPage<Contact>[] }> {
  const ids: string[] = [];
  const pages: ListPage<Contact>[] = [];
  let url: string | null = firstUrl;
  while (url) {
    const res: { status: number; body: ListPage<Contact> } = await api.get<ListPage<Contact>>(url);
    if (res.status !== 200) throw new Error(`GET ${url}: ${res.status} ${JSON.stringify(res.body)}`);
    pages.push(res.body);
    ids.push(...res.body.data.map((c) => c.id));
    url = res.body.links.next;
  }
  return { ids, pages };
}

t.test('following links.next at limit=100 reads all 1,000 contacts exactly once', async (t) => {
  const { ids, pages } = await readAll(`${stack.baseUrl}/v1/contacts?limit=100`);
  t.equal(ids.length, 1000);
  t.equal(new Set(ids).size, 1000, 'no contact twice');
  t.equal(pages.length, 10);
  for (const page of pages.slice(0, -1)) {
    t.equal(page.meta.has_more, true);
    t.equal(page.meta.limit, 100);
    t.match(page.links.next, new RegExp(`^${stack.baseUrl}/v1/contacts\\?limit=100&cursor=`), 'absolute next URL');
  }
  const last = pages[pages.length - 1];
  t.equal(last?.meta.has_more, false, 'has_more false on the last page');
  t.equal(last?.links.next, null, 'links.next null on the last page');
  const sorted = [...ids].sort((x, y) => x.localeCompare(y));
  t.same(ids, sorted, 'ordered by created_at then id');
});

t.test('reads every existing contact exactly once while another client keeps inserting', async (t) => {
  const before = new Set((await stack.db.query<{ id: string }>('select id from contacts where workspace_id = $1', [a.workspace.id])).map((r) => r.id));
  let inserting = true;
  let inserted = 0;
  const writer = (async () => {
    let n = 0;
    while (inserting) {
      const res = await apiA.post('/v1/contacts', { first_name: `Live ${n}`, phone: `+1 212 555 ${String(1000 + n).padStart(4, '0')}` });
      if (res.status === 201) inserted++;
      n++;
    }
  })();
  while (inserted === 0) await new Promise((r) => setTimeout(r, 10));
  const { ids } = await readAll(`${stack.baseUrl}/v1/contacts?limit=100`);
  inserting = false;
  await writer;
  t.ok(inserted > 0, `the writer inserted ${inserted} contacts during the read`);
  t.equal(new Set(ids).size, ids.length, 'no contact seen twice');
  const seen = new Set(ids);
  const missing = [...before].filter((id) => !seen.has(id));
  t.same(missing, [], 'every contact that existed before the read was seen');
});

t.test('invalid page parameters are 400s naming the parameter', async (t) => {
  // Only plain decimal digits: a number conversion alone took 1e1, 0x19, +5, 10.0 and " 10".
  for (const limit of ['0', '101', 'abc', '1.5', '-3', '', '1e1', '0x19', '+5', '10.0', ' 10', '007']) {
    const res = await apiA.get<{ error: { code: string; param: string } }>(`/v1/contacts?limit=${encodeURIComponent(limit)}`);
    t.equal(res.status, 400, `limit=${limit}`);
    t.equal(res.body.error.code, 'validation_failed');
    t.equal(res.body.error.param, 'limit');
  }
  const first = await apiA.get<ListPage<Contact>>('/v1/contacts?limit=5');
  const next = new URL(first.body.links.next ?? '');
  const cursor = next.searchParams.get('cursor') ?? '';

  const [body = '', sig = ''] = cursor.split('.');
  const decoded = JSON.parse(Buffer.from(body, 'base64url').toString()) as { i: string };
  decoded.i = 'con_seed00999';
  const forged = `${Buffer.from(JSON.stringify(decoded)).toString('base64url')}.${sig}`;
  const flipped = cursor.slice(0, -1) + (cursor.endsWith('A') ? 'B' : 'A');

  for (const [label, bad] of [
    ['edited payload', forged],
    ['altered signature', flipped],
    ['garbage', 'not-a-cursor'],
    ['empty', ''],
    ['longer than any cursor given', `${cursor}.${'a'.repeat(1024)}`],
    // Text no cursor holds: the database could not even store a NUL, which made this a validation_failed.
    ['a NUL', '\u0000'],
    ['a NUL inside', `${cursor}\u0000`],
    ['a space inside', `${cursor.slice(0, 5)} ${cursor.slice(5)}`],
  ] as const) {
    const res = await apiA.get<{ error: { code: string; param: string } }>(`/v1/contacts?limit=5&cursor=${encodeURIComponent(bad)}`);
    t.equal(res.status, 400, label);
    t.equal(res.body.error.code, 'invalid_cursor', label);
    t.equal(res.body.error.param, 'cursor', label);
  }

  const other = await apiB.get<{ error: { code: string } }>(`/v1/contacts?limit=5&cursor=${encodeURIComponent(cursor)}`);
  t.equal(other.status, 400, "another workspace's cursor is a 400");
  t.equal(other.body.error.code, 'invalid_cursor');

  const unknown = await apiA.get<{ error: { param: string } }>('/v1/contacts?limit=5&sort=name');
  t.equal(unknown.status, 400, 'unknown query parameters are refused, not ignored');
  t.equal(unknown.body.error.param, 'sort');
  const typo = await apiA.get<{ error: { param: string; message: string } }>('/v1/contacts?limit=5&created_since=2026-01-01');
  t.equal(typo.status, 400, 'an unknown parameter is refused, not ignored');
  t.equal(typo.body.error.param, 'created_since');
  t.equal(
    typo.body.error.message,
    'Unknown query parameter: created_since (did you mean created_after?); it takes limit, cursor, sort, created_after, created_before, created_within, status, email, phone, q.',
    'the message lists the parameters the list takes',
  );
});

t.test('a parameter given twice is a 400 that says so and names it', async (t) => {
  for (const [query, param] of [
    ['limit=1&limit=2', 'limit'],
    ['q=ada&q=lovelace', 'q'],
    ['status=active&status=archived', 'status'],
    ['limit=5&cursor=a.b&cursor=c.d', 'cursor'],
  ] as const) {
    const res = await apiA.get<{ error: { code: string; param: string; message: string } }>(`/v1/contacts?${query}`);
    t.equal(res.status, 400, query);
    t.equal(res.body.error.code, 'validation_failed', query);
    t.equal(res.body.error.param, param, query);
    t.equal(res.body.error.message, `${param} was given 2 times: give each parameter once.`, query);
  }
  const byId = await apiA.get<{ error: { param: string; message: string } }>('/v1/contacts/con_seed00001?id=a&id=b');
  t.equal(byId.status, 400, 'an unknown parameter, even repeated, is still unknown');
  t.equal(byId.body.error.message, 'Unknown query parameter: id; it takes none.');
});

t.test('an empty filter is a 400 that says it is empty', async (t) => {
  for (const param of ['q', 'email', 'phone']) {
    for (const value of ['', '%20%20']) {
      const res = await apiA.get<{ error: { code: string; param: string; message: string } }>(`/v1/contacts?${param}=${value}`);
      t.equal(res.status, 400, `${param}=${value}`);
      t.match(res.body.error, { code: 'validation_failed', param, message: `${param} is empty: give a value, or leave the parameter out.` }, `${param}=${value}`);
    }
  }
});

t.test('default and maximum page sizes', async (t) => {
  const def = await apiA.get<ListPage<Contact>>('/v1/contacts');
  t.equal(def.body.meta.limit, 25);
  t.equal(def.body.data.length, 25);
  const max = await apiA.get<ListPage<Contact>>('/v1/contacts?limit=100');
  t.equal(max.body.data.length, 100);
});

t.test("a workspace never lists another workspace's contacts", async (t) => {
  await apiB.post('/v1/contacts', { first_name: 'Only in B', phone: '+1 415 555 0199' });
  const { ids } = await readAll(`${stack.baseUrl}/v1/contacts?limit=100`, apiB);
  t.equal(ids.length, 1);
  const aIds = new Set((await stack.db.query<{ id: string }>('select id from contacts where workspace_id = $1', [a.workspace.id])).map((r) => r.id));
  t.notOk(ids.some((id) => aIds.has(id)));
});

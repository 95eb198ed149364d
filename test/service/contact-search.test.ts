import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { DummyDriver, Kysely, PostgresAdapter, PostgresIntrospector, PostgresQueryCompiler } from 'kysely';
import pg from 'pg';
import t from 'tap';
import { PLANNED_PER_VALUE } from '../../shared/db/prepared-statement-client.js';
import type { ScopedSelect, WorkspaceSql } from '../../shared/db/workspace-sql.js';
import { applicableContactFilters, whereContactFilters } from '../../workers/contacts/contact-filters.js';
import { CONTACT_COLUMNS } from '../../workers/contacts/contact-resource.js';
import { searchStatements } from '../../workers/contacts/search-page.js';
import type { Contact, ErrorBody, ListPage } from '../helpers/api-types.js';
import { client } from '../helpers/http.js';
import { useStack } from '../helpers/shared-stack.js';

/**
 * Contact search as people ask: words in any order, case and accents ignored, e-mail parts,
 * phone digits; the e-mail and phone filters; newest first; the same filters on the count; and
 * the trigram index serving a word search.
 */

const stack = await useStack(t);
const ws = await stack.bootstrap({ defaultCountry: 'US' });
const W = ws.workspace.id;
const token = await stack.token(W, ['contacts:write']);
const api = client(stack.baseUrl, token);

const PEOPLE = [
  { first_name: 'Ada', last_name: 'Lovelace', email: 'ada.lovelace@example.com', phone: '+1 415 555 0101' },
  { first_name: 'Adam', last_name: 'Smith', email: 'adam@smith.example', phone: '+1 415 555 0102' },
  { first_name: 'Zoë', last_name: 'Durand', email: 'zoe.durand@example.org', phone: '+33 6 12 34 56 78' },
  { first_name: 'Mary-Jane', last_name: 'Watson', email: 'mj@daily.example', phone: '+1 212 555 0103' },
  { first_name: 'Grace', last_name: 'Hopper', phone: '+1 212 555 0104' },
  { first_name: 'Ada', last_name: 'Byron', email: 'byron@example.com', phone: '+1 646 555 0105' },
  { first_name: 'Émile', last_name: 'Zola', email: 'EMILE@Zola.example', phone: '+33 6 12 34 56 79' },
  { first_name: '50%_Off', phone: '+1 646 555 0106' },
];
const ids = new Map<string, string>();
for (const person of PEOPLE) {
  const res = await api.post<Contact>('/v1/contacts', person);
  if (res.status !== 201) throw new Error(JSON.stringify(res.body));
  ids.set(`${person.first_name} ${person.last_name ?? ''}`.trim(), res.body.id);
}
const id = (name: string) => ids.get(name) ?? `missing ${name}`;
const inCreationOrder = (names: string[]) => [...ids.entries()].filter(([name]) => names.includes(name)).map(([, contactId]) => contactId);

async function mcp(): Promise<Client> {
  const mcpClient = new Client({ name: 'contact-search-test', version: '1.0.0' });
  await mcpClient.connect(new StreamableHTTPClientTransport(new URL(`${stack.baseUrl}/mcp/crm`), { requestInit: { headers: { Authorization: `Bearer ${token}` } } }));
  t.teardown(() => mcpClient.close());
  // Listed first, as agents do: the client then checks every result against the tool's output schema.
  await mcpClient.listTools();
  return mcpClient;
}
const tools = await mcp();
type ToolResult = { isError?: boolean; structuredContent?: Record<string, unknown>; content?: { text?: string }[] };
async function countTool(args: Record<string, unknown>): Promise<number> {
  const result = (await tools.callTool({ name: 'count_contacts', arguments: args })) as ToolResult;
  if (result.isError) throw new Error(JSON.stringify(result.content));
  return result.structuredContent?.count as number;
}

/** Every page of a contact list, following links.next. */
const readAll = (path: string) => api.allPages<Contact>(path);

t.test('words, in any order, each beginning a word of the name or the e-mail', async (t) => {
  const cases: [string, string[]][] = [
    ['Ada Lovelace', ['Ada Lovelace']],
    ['lovelace', ['Ada Lovelace']],
    ['LOVE', ['Ada Lovelace']],
    ['lovelace ada', ['Ada Lovelace']],
    ['  ada   lovelace ', ['Ada Lovelace']],
    // "Last, First" and a quoted name, as people and models write them: the commas and quotes around words are not part of them.
    ['Lovelace, Ada', ['Ada Lovelace']],
    ['lovelace , ada', ['Ada Lovelace']],
    ['"Ada Lovelace"', ['Ada Lovelace']],
    ['byron;', ['Ada Byron']],
    [',', []],
    ['ada', ['Ada Lovelace', 'Adam Smith', 'Ada Byron']],
    ['ada byron', ['Ada Byron']],
    ['lace', []],
    ['ada zola', []],
    // Accents and case, both ways.
    ['Zoë', ['Zoë Durand']],
    ['zoe', ['Zoë Durand']],
    ['ZOË DUR', ['Zoë Durand']],
    ['émile', ['Émile Zola']],
    ['EMILE', ['Émile Zola']],
    // E-mail addresses, whole or by their parts.
    ['ada.lovelace@', ['Ada Lovelace']],
    ['ada.lovelace@example.com', ['Ada Lovelace']],
    ['emile@zola', ['Émile Zola']],
    ['durand@', []],
    ['smith', ['Adam Smith']],
    ['example', ['Ada Lovelace', 'Adam Smith', 'Zoë Durand', 'Mary-Jane Watson', 'Ada Byron', 'Émile Zola']],
    ['org', ['Zoë Durand']],
    // Names with punctuation: the whole, and each part.
    ['mary-jane', ['Mary-Jane Watson']],
    ['jane', ['Mary-Jane Watson']],
    // LIKE's own characters match literally.
    ['50%_', ['50%_Off']],
    ['5%', []],
    ['_', []],
    // Fullwidth ％ ＿ ＼, which crm_unaccent() folds to % _ \, match literally too.
    ['50％', ['50%_Off']],
    ['％_', []],
    ['50％＿＼', []],
    // Digits alone: the start of the phone after +.
    ['1415555', ['Ada Lovelace', 'Adam Smith']],
    ['+1 (415) 555-01', ['Ada Lovelace', 'Adam Smith']],
    ['33 6', ['Zoë Durand', 'Émile Zola']],
    // Written as dialled in the workspace's country (US), without +1: read there too (before: nobody).
    ['4155550101', ['Ada Lovelace']],
    ['(415) 555-01', ['Ada Lovelace', 'Adam Smith']],
    ['212 555', ['Mary-Jane Watson', 'Grace Hopper']],
    ['1 (646) 555', ['Ada Byron', '50%_Off']],
    ['06 12 34', []],
    // A short run of digits is not read as dialled: "2125" is not also +1 212 5….
    ['2125', []],
  ];
  for (const [q, names] of cases) {
    const expected = inCreationOrder(names);
    const { ids: found, pages } = await readAll(`/v1/contacts?limit=2&q=${encodeURIComponent(q)}`);
    t.same(found, expected, `"${q}": ${names.join(', ') || 'nobody'}`);
    if (expected.length > 2) t.ok(pages.length > 1, `"${q}": paged`);
    t.equal(await countTool({ query: q }), expected.length, `"${q}": count_contacts agrees`);
  }
  const tool = (await tools.callTool({ name: 'find_contacts', arguments: { query: 'zoe' } })) as ToolResult;
  t.same((tool.structuredContent?.contacts as Contact[]).map((c) => c.id), [id('Zoë Durand')], 'find_contacts finds "zoe" too');
});

t.test('e-mail and phone filters, on the list and the count', async (t) => {
  const cases: [Record<string, string>, string[]][] = [
    [{ email: 'ADA.LOVELACE@example.com' }, ['Ada Lovelace']],
    [{ email: 'emile@zola.example' }, ['Émile Zola']],
    // Without a country code, in the workspace's default country (US).
    [{ phone: '(415) 555-0101' }, ['Ada Lovelace']],
    [{ phone: '+33 6 12 34 56 78' }, ['Zoë Durand']],
    [{ phone: '0033612345679' }, ['Émile Zola']],
    [{ phone: '415 555 0199' }, []],
    [{ phone: '415 555 0101', q: 'ada' }, ['Ada Lovelace']],
    [{ phone: '415 555 0101', q: 'adam' }, []],
  ];
  for (const [filters, names] of cases) {
    const label = JSON.stringify(filters);
    const { ids: found } = await readAll(`/v1/contacts?${new URLSearchParams(filters).toString()}`);
    t.same(found, inCreationOrder(names), `${label}: ${names.join(', ') || 'nobody'}`);
    const { q, ...rest } = filters;
    t.equal(await countTool({ ...rest, ...(q ? { query: q } : {}) }), names.length, `${label}: count_contacts agrees`);
  }
  // An exact filter with no @ matches nobody over REST; a tool refuses it, pointing to query, as an agent reads no contacts as no such contact.
  t.same((await readAll('/v1/contacts?email=ada')).ids, [], 'REST: email=ada matches nobody');
  const words = (await tools.callTool({ name: 'count_contacts', arguments: { email: 'ada' } })) as ToolResult;
  t.equal(words.isError, true, 'count_contacts refuses it');
  t.match(words.content?.[0]?.text, /give them as query/);
  const refused = (await tools.callTool({ name: 'count_contacts', arguments: { phone: 'not a phone' } })) as ToolResult;
  t.equal(refused.isError, true, 'a phone that is no phone is refused by the count too');
  t.match(refused.content?.[0]?.text, /phone/);
  const bad = await api.get<ErrorBody>('/v1/contacts?phone=12');
  t.equal(bad.status, 400);
  t.equal(bad.body.error.param, 'phone');
});

t.test('the stored search words are what the first definition (migration 0009) made of each contact', async (t) => {
  // Migration 0011 moved the function to PL/pgSQL for speed: rows written before and after must agree.
  const rows = await stack.db.query<{ first_name: string; stored: string; first_definition: string }>(
    `select first_name, search_text as stored,
            (select ' ' || w || ' ' || regexp_replace(w, '[[:punct:]]+', ' ', 'g') || ' '
             from (select lower(crm_unaccent(concat_ws(' ', first_name, last_name, email))) as w) as words) as first_definition
     from contacts where workspace_id = $1`,
    [W],
  );
  t.equal(rows.length, PEOPLE.length);
  for (const row of rows) t.equal(row.stored, row.first_definition, `${row.first_name}: ${row.stored}`);
  t.ok(rows.some((r) => r.stored.includes(' zoe durand ')), 'accents folded');
  const [fn] = await stack.db.query<{ language: string }>(
    `select l.lanname as language from pg_proc p join pg_language l on l.oid = p.prolang where p.proname = 'crm_contact_search_text'`,
  );
  t.equal(fn?.language, 'plpgsql', 'the words come from the PL/pgSQL definition');
});

t.test('newest first, paged, and a cursor keeps its order', async (t) => {
  const expected = (await stack.db.query<{ id: string }>('select id from contacts where workspace_id = $1 order by created_at desc, id desc', [W])).map((r) => r.id);
  const { ids: newest, pages } = await readAll('/v1/contacts?limit=3&sort=newest_first');
  t.same(newest, expected, 'every contact once, newest first');
  t.equal(new URL(pages[0]?.links.next ?? '').searchParams.get('sort'), 'newest_first', 'links.next carries the order');
  const { ids: oldest } = await readAll('/v1/contacts?limit=3&sort=oldest_first');
  t.same(oldest, [...expected].reverse(), 'oldest_first is the default order');
  const { ids: adaNewest } = await readAll('/v1/contacts?limit=1&sort=newest_first&q=ada');
  t.same(adaNewest, inCreationOrder(['Ada Lovelace', 'Adam Smith', 'Ada Byron']).reverse(), 'with a search');

  const newestCursor = new URL(pages[0]?.links.next ?? '').searchParams.get('cursor') ?? '';
  const oldestPage = await api.get<ListPage<Contact>>('/v1/contacts?limit=3');
  const oldestCursor = new URL(oldestPage.body.links.next ?? '').searchParams.get('cursor') ?? '';
  for (const [label, path] of [
    ['a newest_first cursor in the default order', `/v1/contacts?limit=3&cursor=${encodeURIComponent(newestCursor)}`],
    ['a newest_first cursor with oldest_first', `/v1/contacts?limit=3&sort=oldest_first&cursor=${encodeURIComponent(newestCursor)}`],
    ['an oldest_first cursor with newest_first', `/v1/contacts?limit=3&sort=newest_first&cursor=${encodeURIComponent(oldestCursor)}`],
  ] as const) {
    const res = await api.get<ErrorBody>(path);
    t.equal(res.status, 400, label);
    t.equal(res.body.error.code, 'invalid_cursor', label);
  }
  const explicit = await api.get<ListPage<Contact>>(`/v1/contacts?limit=3&sort=oldest_first&cursor=${encodeURIComponent(oldestCursor)}`);
  t.equal(explicit.status, 200, 'oldest_first named or not is the same order');

  const bad = await api.get<ErrorBody>('/v1/contacts?sort=name');
  t.equal(bad.status, 400);
  t.equal(bad.body.error.param, 'sort');
  t.match(bad.body.error.message, /newest_first/);

  const found = (await tools.callTool({ name: 'find_contacts', arguments: { query: 'ada', limit: 1 } })) as ToolResult;
  t.same((found.structuredContent?.contacts as Contact[]).map((c) => c.id), [id('Ada Lovelace')], 'find_contacts still reads oldest first');
});

t.test('bad searches are 400s and change nothing', async (t) => {
  for (const q of ['', ' ', 'x'.repeat(101)]) {
    const res = await api.get<ErrorBody>(`/v1/contacts?q=${encodeURIComponent(q)}`);
    t.equal(res.status, 400, JSON.stringify(q));
    t.equal(res.body.error.param, 'q');
  }
});

t.test('a search reads a bounded stretch in order, else asks the trigram index', async (t) => {
  // A workspace big enough that reading it in order would cost: 30,000 contacts of its own.
  const big = (await stack.bootstrap({ defaultCountry: 'US' })).workspace.id;
  await stack.db.query(
    `insert into contacts (id, workspace_id, first_name, last_name, email, phone, status, custom_fields, created_at, updated_at)
     select 'con_SRCH' || lpad(i::text, 6, '0'), $1, 'First' || i, 'Last' || i, 'person' || i || '@example.test',
            '+1650' || lpad((3000000 + i)::text, 7, '0'), 'active', '{}', now() - i * interval '1 second', now()
     from generate_series(1, 30000) as i`,
    [big],
  );
  await stack.db.query('analyze contacts');

  // The worker's own statements, compiled as it compiles them.
  const kysely = new Kysely<Record<string, Record<string, unknown>>>({
    dialect: {
      createAdapter: () => new PostgresAdapter(),
      createDriver: () => new DummyDriver(),
      createIntrospector: (db) => new PostgresIntrospector(db),
      createQueryCompiler: () => new PostgresQueryCompiler(),
    },
  });
  const statementsFor = (q: string) => {
    const query = kysely.selectFrom('contacts').select(CONTACT_COLUMNS).where('contacts.workspace_id', '=', big) as unknown as ScopedSelect<'contacts', Contact>;
    const range = { created_after: null, created_before: null, time_zone: 'UTC' };
    const filtered = whereContactFilters(query, applicableContactFilters({ q }, range, null));
    const db = { global: kysely } as unknown as Pick<WorkspaceSql, 'global'>;
    const { inOrder, byIndex } = searchStatements(db, filtered, applicableContactFilters({ q }, range, null).q ?? '', 'asc', 26);
    return { inOrder: inOrder.compile(), byIndex: byIndex.compile() };
  };

  const connection = new pg.Client({ connectionString: stack.db.url });
  await connection.connect();
  t.teardown(() => connection.end());
  const plan = async (compiled: { sql: string; parameters: readonly unknown[] }) =>
    (await connection.query<{ 'QUERY PLAN': string }>(`explain (analyze, costs off, timing off, summary off) ${compiled.sql}`, [...compiled.parameters])).rows.map((r) => r['QUERY PLAN']).join('\n');

  const rowsRead = (walk: string) => Number([...walk.matchAll(/Limit \(actual rows=(\d+)/g)][1]?.[1]);
  for (const q of ['first12345', 'Last2999 first2999', 'PERSON777@', 'zzyzx']) {
    const { inOrder, byIndex } = statementsFor(q);
    const walk = await plan(inOrder);
    t.match(walk, /Index Scan using contacts_workspace_created_idx/, `"${q}": the read in order follows the list's index`);
    t.equal(rowsRead(walk), 2080, `"${q}": and stops after 80 rows per row asked for, too few matches`);
    t.match(await plan(byIndex), /Bitmap Index Scan on contacts_search_text_idx/, `"${q}": then the matches come from the trigram index`);
    // Planned once for any value, Postgres may read the workspace in order instead: so the
    // worker never lets this statement be prepared (shared/db/prepared-statement-client.ts).
    t.ok(byIndex.sql.includes(PLANNED_PER_VALUE), `"${q}": planned for its words on every run`);
  }
  const common = await plan(statementsFor('first last').inOrder);
  t.equal(rowsRead(common), 26, 'common words: the read in order fills the page at once (no index needed)');

  const reader = client(stack.baseUrl, await stack.token(big, ['contacts:read']));
  const rare = await reader.get<ListPage<Contact>>('/v1/contacts?q=first12345');
  t.same(rare.body.data.map((c) => c.first_name), ['First12345'], 'a rare word: the one contact');
  const everyone = await reader.get<ListPage<Contact>>('/v1/contacts?q=first&limit=3');
  const oldest = await stack.db.query<{ id: string }>('select id from contacts where workspace_id = $1 order by created_at, id limit 3', [big]);
  t.same(everyone.body.data.map((c) => c.id), oldest.map((r) => r.id), 'a word every contact has: the first page in order');
  const sparse = await reader.get<ListPage<Contact>>('/v1/contacts?q=first1234&limit=5');
  const expected = await stack.db.query<{ id: string }>("select id from contacts where workspace_id = $1 and first_name like 'First1234%' order by created_at, id limit 5", [big]);
  t.same(sparse.body.data.map((c) => c.id), expected.map((r) => r.id), 'a word of a few hundred spread out: found by the index, in order');
});

/**
 * `npm run bench -- --search [--rows 1000000]`: contact search at size. Seeds `rows` contacts
 * with names people search for (bench/seed-contacts.ts) in one workspace of a fresh stack, then
 * times GET /v1/contacts?q=… for common and rare words, accents, e-mail and phone prefixes, and
 * prints how the worker found each first page: common words by reading in order, rare ones from
 * the trigram index on search_text (migration 0009) after a bounded read in order.
 */
import { DummyDriver, Kysely, PostgresAdapter, PostgresIntrospector, PostgresQueryCompiler, type Selectable } from 'kysely';
import pg from 'pg';
import type { CrmDatabase } from '../shared/db/sql.js';
import type { ScopedSelect, WorkspaceSql } from '../shared/db/workspace-sql.js';
import { applicableContactFilters, whereContactFilters } from '../workers/contacts/contact-filters.js';
import { searchStatements } from '../workers/contacts/search-page.js';
import { startBenchStack } from './bench-stack.js';
import { formatColumns, load } from './load.js';
import { seedNamedContacts } from './seed-contacts.js';

export interface SearchBenchOptions {
  rows: number;
  durationSeconds: number;
  connections: number;
}

/** Query, what it stands for, and whether its words are rare (then the trigram index must serve it). */
const QUERIES: [string, string, boolean][] = [
  ['Ada Lovelace', 'two words, one contact in 1,600', true],
  ['lovelace', 'a last name, one in 40', false],
  ['zoe', 'accent-free for Zoë, one in 40', false],
  ['Brontë', 'with its accent, one in 40', false],
  ['ada.lovelace12', 'e-mail prefix, a handful', true],
  ['ada.lovelace123200@', 'whole e-mail local part, one contact', true],
  ['kowalski mercier', 'two last names: no contact', true],
  ['qqq', 'no contact at all', true],
  ['+1 650 200 12', 'phone digits', false],
];

/** Median latency every search must stay under (ms). */
const P50_BAR_MS = 20;

export async function runSearchBench(options: SearchBenchOptions): Promise<boolean> {
  const stack = await startBenchStack();
  const auth = { authorization: `Bearer ${stack.token}` };
  try {
    const db = new pg.Client({ connectionString: stack.dbUrl });
    await db.connect();
    process.stdout.write(`Seeding ${options.rows.toLocaleString('en')} contacts… `);
    const seeding = Date.now();
    await seedNamedContacts(db, stack.workspaceId, options.rows);
    await db.query('vacuum analyze contacts');
    await db.query('checkpoint');
    process.stdout.write(`done in ${((Date.now() - seeding) / 1000).toFixed(0)} s\n`);

    const rows: string[][] = [['q', 'matches', 'req/s', 'p50 ms', 'p99 ms', 'errors', 'plan (execution ms)']];
    const failures: string[] = [];
    for (const [q, what, rare] of QUERIES) {
      const url = `${stack.baseUrl}/v1/contacts?limit=25&q=${encodeURIComponent(q)}`;
      const first = await fetch(url, { headers: auth });
      const page = (await first.json()) as { data: unknown[]; meta: { has_more: boolean } };
      await load({ name: 'warm-up', url, headers: auth, connections: options.connections, durationSeconds: 1 });
      const result = await load({ name: q, url, headers: auth, connections: options.connections, durationSeconds: options.durationSeconds });
      const plan = await planOf(db, stack.workspaceId, q);
      if (rare && plan.summary !== 'in order, then trigram index') failures.push(`"${q}": rare words, yet ${plan.summary}`);
      if (result.p50 > P50_BAR_MS) failures.push(`"${q}": p50 ${result.p50} ms`);
      if (result.errors + result.non2xx > 0) failures.push(`"${q}": errors`);
      rows.push([`${q} (${what})`, `${page.data.length}${page.meta.has_more ? '+' : ''}`, String(result.rps), result.p50.toFixed(1), result.p99.toFixed(1), String(result.errors + result.non2xx), `${plan.summary} (${plan.ms.toFixed(1)})`]);
    }
    await db.end();
    process.stdout.write(`\n${options.rows.toLocaleString('en')} contacts, ${options.connections} connections, ${options.durationSeconds} s per query, first page of 25, Node ${process.version}\n\n`);
    process.stdout.write(`${formatColumns(rows)}\n\n`);
    process.stdout.write(`rare words served by the trigram index, every search p50 under ${P50_BAR_MS} ms: ${failures.length === 0 ? 'PASS' : `FAIL (${failures.join('; ')})`}\n`);
    return failures.length === 0;
  } finally {
    await stack.stop();
  }
}

type ContactRow = Selectable<CrmDatabase['contacts']>;

/** The worker's own filter code, compiled without a database. */
const compiler = new Kysely<Record<string, Record<string, unknown>>>({
  dialect: {
    createAdapter: () => new PostgresAdapter(),
    createDriver: () => new DummyDriver(),
    createIntrospector: (db) => new PostgresIntrospector(db),
    createQueryCompiler: () => new PostgresQueryCompiler(),
  },
});

/**
 * The plans of the worker's first-page statements for `q` (./workers/contacts/search-page.ts,
 * compiled by its own code), executed: the read in order, and, when it found too few, the
 * trigram index's matches.
 */
async function planOf(db: pg.Client, workspaceId: string, q: string): Promise<{ text: string; summary: string; ms: number }> {
  const query = compiler.selectFrom('contacts').selectAll().where('contacts.workspace_id', '=', workspaceId) as unknown as ScopedSelect<'contacts', ContactRow>;
  const range = { created_after: null, created_before: null, time_zone: 'UTC' };
  const applied = applicableContactFilters({ q }, range, null);
  const filtered = whereContactFilters(query, applied);
  const { inOrder, byIndex } = searchStatements({ global: compiler } as unknown as Pick<WorkspaceSql, 'global'>, filtered, applied.q ?? '', 'asc', 26);
  const explain = async (compiled: { sql: string; parameters: readonly unknown[] }) =>
    (await db.query<{ 'QUERY PLAN': string }>(`explain (analyze, costs off) ${compiled.sql}`, [...compiled.parameters])).rows.map((r) => r['QUERY PLAN']).join('\n');
  const executionMs = (plan: string) => Number(/Execution Time: ([\d.]+)/.exec(plan)?.[1] ?? NaN);
  const walk = await explain(inOrder.compile());
  const found = Number(/^Limit \(actual time=[\d.]+\.\.[\d.]+ rows=(\d+)/.exec(walk)?.[1] ?? 0);
  if (found >= 26) return { text: walk, summary: 'in order', ms: executionMs(walk) };
  const index = await explain(byIndex.compile());
  const how = index.includes('contacts_search_text_idx') ? 'trigram index' : index.includes('Seq Scan') ? 'sequential scan' : 'other';
  return { text: index, summary: `in order, then ${how}`, ms: executionMs(walk) + executionMs(index) };
}

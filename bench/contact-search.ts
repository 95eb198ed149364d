/**
 * `npm run bench -- --search [--rows 1000000]`: contact search at size. Seeds `rows` contacts
 * with names people search for (bench/seed-contacts.ts) in one workspace of a fresh stack, then
 * times GET /v1/contacts?q=… for common and rare words, accents, e-mail and phone prefixes, and
 * prints each query's plan: the trigram index on search_text (migration 0009) must serve them.
 */
import pg from 'pg';
import { startBenchStack } from './bench-stack.js';
import { formatColumns, load } from './load.js';
import { seedNamedContacts } from './seed-contacts.js';

export interface SearchBenchOptions {
  rows: number;
  durationSeconds: number;
  connections: number;
}

/** Query, and what it stands for. */
const QUERIES: [string, string][] = [
  ['Ada Lovelace', 'two words, one contact in 1,600'],
  ['lovelace', 'a last name, one in 40'],
  ['zoe', 'accent-free for Zoë, one in 40'],
  ['Brontë', 'with its accent'],
  ['ada.lovelace1234', 'e-mail prefix, a handful'],
  ['ada.lovelace123440@', 'whole e-mail local part, one contact'],
  ['kowalski mercier', 'two last names: no contact'],
  ['qqq', 'no contact at all'],
  ['+1 650 200 12', 'phone digits'],
];

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
    let usesIndex = true;
    for (const [q, what] of QUERIES) {
      const url = `${stack.baseUrl}/v1/contacts?limit=25&q=${encodeURIComponent(q)}`;
      const first = await fetch(url, { headers: auth });
      const page = (await first.json()) as { data: unknown[]; meta: { has_more: boolean } };
      await load({ name: 'warm-up', url, headers: auth, connections: options.connections, durationSeconds: 1 });
      const result = await load({ name: q, url, headers: auth, connections: options.connections, durationSeconds: options.durationSeconds });
      const plan = await planOf(db, stack.workspaceId, q);
      if (!/^[\d\s+]+$/.test(q) && !plan.text.includes('contacts_search_text_idx')) usesIndex = false;
      rows.push([`${q} (${what})`, `${page.data.length}${page.meta.has_more ? '+' : ''}`, String(result.rps), result.p50.toFixed(1), result.p99.toFixed(1), String(result.errors + result.non2xx), `${plan.summary} (${plan.ms.toFixed(1)})`]);
    }
    await db.end();
    process.stdout.write(`\n${options.rows.toLocaleString('en')} contacts, ${options.connections} connections, ${options.durationSeconds} s per query, first page of 25, Node ${process.version}\n\n`);
    process.stdout.write(`${formatColumns(rows)}\n\n`);
    process.stdout.write(`word searches use the trigram index: ${usesIndex ? 'PASS' : 'FAIL'}\n`);
    return usesIndex;
  } finally {
    await stack.stop();
  }
}

/**
 * The plan of the worker's first-page statement for `q`, as a generic plan: the worker runs
 * it prepared, and after five runs Postgres may plan it once for any value.
 */
async function planOf(db: pg.Client, workspaceId: string, q: string): Promise<{ text: string; summary: string; ms: number }> {
  const words = q.split(/\s+/).filter(Boolean);
  const conditions = words.map((_, i) => `search_text like '% ' || lower(crm_unaccent($${i + 2}))`).join(' and ');
  const statement = `select id from contacts where workspace_id = $1 and (${conditions}) order by created_at, id limit 26`;
  await db.query('set plan_cache_mode = force_generic_plan');
  const result = await db.query<{ 'QUERY PLAN': string }>(`explain (analyze, costs off) ${statement}`, [workspaceId, ...words.map((w) => `${w.toLowerCase()}%`)]);
  await db.query('reset plan_cache_mode');
  const text = result.rows.map((r) => r['QUERY PLAN']).join('\n');
  const summary = text.includes('contacts_search_text_idx') ? 'trigram index' : /Index Scan using (\w+)/.exec(text)?.[1] ?? (text.includes('Seq Scan') ? 'sequential scan' : 'other');
  return { text, summary, ms: Number(/Execution Time: ([\d.]+)/.exec(text)?.[1] ?? NaN) };
}

/**
 * `npm run bench`: starts a local stack (gateway and one worker of each kind as
 * separate processes, over real NATS, on real Postgres), seeds 100,000 contacts and
 * 100,000 deals in one workspace, and drives each endpoint with autocannon. The same
 * list queries are served by minimal express + pg handlers as the baseline.
 *
 *   npm run bench -- [--duration 8] [--connections 8] [--rows 100000] [--rounds 3]
 *   npm run bench -- --soak [--soak-seconds 120]     (bench/soak.ts: mixed load, memory, scaling)
 *   npm run bench -- --profile [--scenario list|deals|mcp|create|webhook] (bench/profile.ts: CPU profiles of the hot path)
 *   npm run bench -- --cluster     (bench/cluster.ts: 3 NATS nodes, 2 gateways, 1/2/4 workers held to 0.25 CPU, a node killed)
 *   npm run bench -- --agents      (bench/agent-evaluation.ts: 20 agent tasks as tool calls, each within its call budget)
 *   npm run bench -- --search [--rows 1000000]   (bench/contact-search.ts: contact search at 1,000,000 contacts)
 *   npm run bench -- --cpu-share [--scenario all|list|deals|mcp|create|webhook] [--rounds 2]   (bench/cpu-share.ts: CPU per request, process by process;
 *                                   CPU_SHARE_ENV='{"EVENTS_RECORDING":"off"}' sets the service's environment)
 *
 * It ends with `crm import contacts` of a 100,000-row CSV (bench/import-contacts.ts), then
 * measures what events and webhooks cost (bench/events.ts).
 *
 * Each list read and its baseline are measured alternately, `rounds` times each, and
 * the medians compared, so drift on a shared machine affects both sides alike.
 */
import path from 'node:path';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { deriveSecrets } from '../shared/secrets.js';
import { encodeCursor, type CursorScope } from '../workers/runtime/keyset-cursor.js';
import { runAgentEvaluation } from './agent-evaluation.js';
import { startBenchStack } from './bench-stack.js';
import { benchEvents } from './events.js';
import { benchImportContacts, formatImportResult } from './import-contacts.js';
import { formatTable, load, type LoadResult } from './load.js';
import { freePort, ROOT, waitReady } from './processes.js';
import { runClusterBench } from './cluster.js';
import { runSearchBench } from './contact-search.js';
import { seedContacts } from './seed-contacts.js';
import { seedDeals } from './seed-deals.js';
import { runProfile, type ProfileScenario } from './profile.js';
import { runCpuShare } from './cpu-share.js';
import { runSoak } from './soak.js';

const { values } = parseArgs({
  options: {
    duration: { type: 'string', default: '8' },
    connections: { type: 'string', default: '8' },
    rows: { type: 'string', default: '100000' },
    rounds: { type: 'string', default: '3' },
    soak: { type: 'boolean', default: false },
    'soak-seconds': { type: 'string', default: '120' },
    profile: { type: 'boolean', default: false },
    cluster: { type: 'boolean', default: false },
    agents: { type: 'boolean', default: false },
    search: { type: 'boolean', default: false },
    scenario: { type: 'string', default: 'list' },
    'cpu-share': { type: 'boolean', default: false },
  },
});
if (values['cpu-share']) {
  await runCpuShare({ scenario: process.argv.includes('--scenario') ? values.scenario : 'all', env: process.env.CPU_SHARE_ENV ? (JSON.parse(process.env.CPU_SHARE_ENV) as Record<string, string>) : undefined, durationSeconds: Number(values.duration), connections: Number(values.connections), rounds: process.argv.includes('--rounds') ? Number(values.rounds) : 2 });
  process.exit(0);
}
if (values.profile) {
  await runProfile({ scenario: values.scenario as ProfileScenario, durationSeconds: Number(values.duration), connections: Number(values.connections) });
  process.exit(0);
}
if (values.agents) {
  process.exit((await runAgentEvaluation()) ? 0 : 1);
}
if (values.cluster) {
  const passed = await runClusterBench({ durationSeconds: Number(values.duration), connections: Number(values.connections) });
  process.exit(passed ? 0 : 1);
}
if (values.search) {
  const rows = process.argv.includes('--rows') ? Number(values.rows) : 1_000_000;
  const passed = await runSearchBench({ rows, durationSeconds: Number(values.duration), connections: Number(values.connections) });
  process.exit(passed ? 0 : 1);
}
if (values.soak) {
  const passed = await runSoak({ seconds: Number(values['soak-seconds']), connections: Number(values.connections) });
  process.exit(passed ? 0 : 1);
}
const duration = Number(values.duration);
const connections = Number(values.connections);
const rowCount = Number(values.rows);
const rounds = Number(values.rounds);
/** The size of the import the bar is set for (100,000 rows under a minute). */
const IMPORT_ROWS = 100_000;

const stack = await startBenchStack();
const { baseUrl, dbUrl, env, workspaceId, token } = stack;
const cursorKey = deriveSecrets(stack.secret).cursorKey;

interface Comparison {
  name: string;
  service: string;
  baseline: string;
  deep: { label: string; url: string };
}

try {
  const db = new pg.Client({ connectionString: dbUrl });
  await db.connect();
  process.stdout.write(`Seeding ${rowCount.toLocaleString('en')} contacts and ${rowCount.toLocaleString('en')} deals… `);
  await seedContacts(db, workspaceId, rowCount);
  const stages = await seedDeals(db, workspaceId, rowCount);
  // Settle the database before measuring: no autovacuum or checkpoint of the seed mid-run.
  await db.query('vacuum analyze contacts');
  await db.query('vacuum analyze deals');
  await db.query('checkpoint');
  process.stdout.write('done\n');

  /** A signed cursor `depth` rows into a list, as the worker would have issued it. */
  async function cursorAt(table: 'contacts' | 'deals', where: string, params: unknown[], scope: Omit<CursorScope, 'workspaceId'>, depth: number) {
    const row = (await db.query<{ id: string; created_at: Date }>(
      `select id, created_at from ${table} where workspace_id = $1 ${where} order by created_at, id offset ${depth - 1} limit 1`,
      [workspaceId, ...params],
    )).rows[0];
    if (!row) throw new Error(`no row ${depth} deep in ${table}`);
    return encodeCursor(cursorKey, { workspaceId, ...scope }, { createdAt: row.created_at, id: row.id });
  }

  const stage = stages[2]?.id ?? '';
  const after = '2025-01-01T01:00:00.000Z';
  const deep = Math.min(90_000, rowCount - 1_000);
  const deepInStage = Math.floor(deep / 5);

  const basePort = await freePort();
  stack.spawn([], { ...env, PORT: String(basePort), WORKSPACE_ID: workspaceId }, path.join(ROOT, 'bench', 'baseline-server.ts'));
  const baselineUrl = `http://127.0.0.1:${basePort}`;
  await waitReady(`${baselineUrl}/v1/contacts?limit=1`);

  const comparisons: Comparison[] = [
    {
      name: 'GET /v1/contacts?limit=100',
      service: `${baseUrl}/v1/contacts?limit=100`,
      baseline: `${baselineUrl}/v1/contacts?limit=100`,
      deep: { label: `${deep.toLocaleString('en')} rows deep`, url: `${baseUrl}/v1/contacts?limit=100&cursor=${await cursorAt('contacts', '', [], { list: 'contacts', filters: {} }, deep)}` },
    },
    {
      name: 'GET /v1/deals?limit=100&stage=…',
      service: `${baseUrl}/v1/deals?limit=100&stage=${stage}`,
      baseline: `${baselineUrl}/v1/deals?limit=100&stage_id=${stage}`,
      deep: {
        label: `${deepInStage.toLocaleString('en')} rows deep`,
        url: `${baseUrl}/v1/deals?limit=100&stage=${stage}&cursor=${await cursorAt('deals', 'and stage_id = $2', [stage], { list: 'deals', filters: { stage_ids: [stage] } }, deepInStage)}`,
      },
    },
    {
      name: 'GET /v1/deals?limit=100&created_after=…',
      service: `${baseUrl}/v1/deals?limit=100&created_after=${after}`,
      baseline: `${baselineUrl}/v1/deals?limit=100&created_after=${after}`,
      deep: {
        label: `${(deep - 4_000).toLocaleString('en')} rows deep`,
        url: `${baseUrl}/v1/deals?limit=100&created_after=${after}&cursor=${await cursorAt('deals', 'and created_at >= $2', [after], { list: 'deals', filters: { created_after: after } }, deep - 4_000)}`,
      },
    },
  ];
  await db.end();

  const auth = { authorization: `Bearer ${token}` };
  let phone = 0;
  const newContact = () => {
    const n = phone++;
    return JSON.stringify({ first_name: `Bench ${n}`, phone: `+1415${200 + (Math.floor(n / 10_000) % 800)}${String(n % 10_000).padStart(4, '0')}` });
  };
  const run = (name: string, url: string, extra: { method?: 'POST'; body?: () => string; headers?: Record<string, string> } = {}) =>
    load({ name, url, connections, durationSeconds: duration, headers: { ...auth, ...extra.headers }, method: extra.method, body: extra.body });

  // Warm-up: JIT, pools, caches, on both sides and for every scenario.
  for (const c of comparisons) {
    await load({ name: 'warm-up', url: c.service, headers: auth, connections, durationSeconds: 2 });
    await load({ name: 'warm-up', url: c.deep.url, headers: auth, connections, durationSeconds: 1 });
    await load({ name: 'warm-up', url: c.baseline, connections, durationSeconds: 2 });
  }
  await load({ name: 'warm-up', url: `${baseUrl}/v1/me`, headers: auth, connections, durationSeconds: 1 });
  await load({ name: 'warm-up', url: `${baseUrl}/v1/contacts`, method: 'POST', body: newContact, headers: { ...auth, 'content-type': 'application/json' }, connections, durationSeconds: 2 });

  const results: LoadResult[] = [await run('GET /v1/me', `${baseUrl}/v1/me`)];
  const verdicts: string[] = [];
  let failed = false;
  const mark = (ok: boolean) => {
    if (!ok) failed = true;
    return ok ? 'PASS' : 'FAIL';
  };
  for (const c of comparisons) {
    const ours: LoadResult[] = [];
    const theirs: LoadResult[] = [];
    for (let round = 0; round < rounds; round++) {
      ours.push(await run(`${c.name} (first page)`, c.service));
      theirs.push(await load({ name: `  baseline: express + pg, same query`, url: c.baseline, connections, durationSeconds: duration }));
    }
    const first = median(ours);
    const base = median(theirs);
    const deepResult = await run(`${c.name} (${c.deep.label})`, c.deep.url);
    results.push(first, deepResult, base);
    const ratio = first.rps / base.rps;
    const deepRatio = deepResult.p50 / Math.max(first.p50, 0.001);
    verdicts.push(
      `${c.name}: throughput ${(ratio * 100).toFixed(0)}% of baseline (>= 80%) ${mark(ratio >= 0.8)}; deep p50 ${deepRatio.toFixed(2)}x first (<= 1.2x) ${mark(deepRatio <= 1.2)}` +
        `   [rounds: ${ours.map((r) => r.rps).join('/')} vs ${theirs.map((r) => r.rps).join('/')}]`,
    );
  }
  const create = await run('POST /v1/contacts', `${baseUrl}/v1/contacts`, { method: 'POST', body: newContact, headers: { 'content-type': 'application/json' } });
  results.push(create);
  verdicts.push(`POST /v1/contacts: ${create.rps} req/s (>= 1,500) ${mark(create.rps >= 1500)}, p99 ${create.p99.toFixed(1)} ms (< 25 ms) ${mark(create.p99 < 25)}`);

  // The CRM tool server, stateless: each POST is one JSON-RPC call, authenticated with the API token.
  const mcpHeaders = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
  const toolCall = (name: string, args: Record<string, unknown>) => () =>
    JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: args } });
  const tools: LoadResult[] = [];
  for (const [label, name, args] of [
    ['MCP tools/call whoami', 'whoami', {}],
    ['MCP tools/call find_contacts (25)', 'find_contacts', { limit: 25 }],
    ['MCP tools/call find_contacts (100)', 'find_contacts', { limit: 100 }],
  ] as const) {
    await load({ name: 'warm-up', url: `${baseUrl}/mcp/crm`, method: 'POST', body: toolCall(name, args), headers: { ...auth, ...mcpHeaders }, connections, durationSeconds: 2 });
    tools.push(await run(label, `${baseUrl}/mcp/crm`, { method: 'POST', body: toolCall(name, args), headers: mcpHeaders }));
  }
  results.push(...tools);
  // The same 100 rows as the REST list's first page, through the tool server.
  const restList = results.find((r) => r.name === `${comparisons[0]?.name} (first page)`);
  const toolList = tools.at(-1);
  if (restList && toolList) {
    const share = toolList.rps / restList.rps;
    verdicts.push(`MCP find_contacts (100): ${(share * 100).toFixed(0)}% of the REST list of 100 (>= 75%) ${mark(share >= 0.75)}`);
  }

  // The latency bar is the REST API's; the tool-server figures are reported alongside.
  const service = results.filter((r) => !r.name.includes('baseline') && !r.name.startsWith('MCP'));
  const worstP99 = Math.max(...service.map((r) => r.p99));
  const errors = results.reduce((n, r) => n + r.errors + r.non2xx, 0);
  process.stdout.write(
    `\n${rowCount.toLocaleString('en')} contacts and deals, ${connections} connections, ${duration} s per run (first pages and baselines: median of ${rounds}), Node ${process.version}\n\n`,
  );
  process.stdout.write(`${formatTable(results)}\n\n`);
  for (const v of verdicts) process.stdout.write(`${v}\n`);
  process.stdout.write(`worst p99 of the REST endpoints: ${worstP99.toFixed(1)} ms (< 20 ms) ${mark(worstP99 < 20)}\n`);
  process.stdout.write(`errors and non-2xx responses: ${errors}\n`);

  // Bulk import: the real command, its batches over NATS to the running contacts worker.
  process.stdout.write(`\nImporting ${IMPORT_ROWS.toLocaleString('en')} contacts from CSV… `);
  const imported = await benchImportContacts({ env, rows: IMPORT_ROWS });
  const importLine = formatImportResult(imported);
  process.stdout.write(`done\n${importLine}\n`);
  // The import's line carries its own verdict (bench/import-contacts.ts). Everything is printed
  // first; a failed bar then fails the run.
  if (failed || / FAIL$/.test(importLine)) process.exitCode = 1;
} finally {
  await stack.stop();
}

// What events and webhooks cost (bench/events.ts): two stacks of their own, after this one is gone.
process.stdout.write('\nEvents and webhooks…\n');
const events = await benchEvents({ durationSeconds: duration, connections, rounds, importRows: 20_000 });
process.stdout.write(`${events.text}\n`);
if (!events.passed) process.exitCode = 1;

/** The run with the median throughput. */
function median(runs: LoadResult[]): LoadResult {
  const sorted = [...runs].sort((a, b) => a.rps - b.rps);
  return sorted[Math.floor(sorted.length / 2)] as LoadResult;
}

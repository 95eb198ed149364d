/**
 * `npm run bench`: starts a local stack (gateway and one worker of each kind as
 * separate processes, over real NATS, on real Postgres), seeds 100,000 contacts in
 * one workspace, and drives each endpoint with autocannon. The same list query is
 * served by a minimal express + pg handler as the baseline.
 *
 *   npm run bench -- [--duration 10] [--connections 10] [--contacts 100000] [--rounds 3]
 *
 * The list read and its baseline are measured alternately, `rounds` times each, and
 * the medians compared, so drift on a shared machine affects both sides alike.
 */
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import type { ChildProcess } from 'node:child_process';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { migrateDatabase } from '../shared/db/migrate.js';
import { openDatabase } from '../shared/db/orm.js';
import { deriveSecrets } from '../shared/secrets.js';
import { encodeCursor } from '../workers/runtime/keyset-cursor.js';
import { formatTable, load, type LoadResult } from './load.js';
import { freePort, ROOT, runCrmJson, spawnQuiet, stopAll, waitReady } from './processes.js';

const { values } = parseArgs({
  options: {
    duration: { type: 'string', default: '10' },
    connections: { type: 'string', default: '10' },
    contacts: { type: 'string', default: '100000' },
    rounds: { type: 'string', default: '3' },
  },
});
const rounds = Number(values.rounds);
const duration = Number(values.duration);
const connections = Number(values.connections);
const contactCount = Number(values.contacts);

const adminUrl = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const natsUrl = process.env.NATS_URL ?? 'nats://127.0.0.1:4222';
const dbName = `crm_bench_${randomBytes(4).toString('hex')}`;
const dbUrl = Object.assign(new URL(adminUrl), { pathname: `/${dbName}` }).toString();
const secret = randomBytes(32).toString('hex');
const port = await freePort();
const env: NodeJS.ProcessEnv = {
  PATH: process.env.PATH,
  DATABASE_URL: dbUrl,
  NATS_URL: natsUrl,
  CRM_SECRET: secret,
  BUS_NAMESPACE: `bench${randomBytes(3).toString('hex')}`,
  PORT: String(port),
  LOG_LEVEL: 'info',
};
const baseUrl = `http://127.0.0.1:${port}`;

const admin = new pg.Client({ connectionString: adminUrl });
await admin.connect();
await admin.query(`create database ${dbName}`);
const children: ChildProcess[] = [];

try {
  const orm = await openDatabase({ url: dbUrl, poolMax: 2, applicationName: 'bench' });
  await migrateDatabase(orm, dbUrl);
  await orm.close();

  for (const worker of ['contacts', 'tokens', 'deals', 'schema']) children.push(spawnQuiet(['worker', worker], env));
  children.push(spawnQuiet(['gateway'], env));
  await waitReady(`${baseUrl}/readyz`);

  const boot = await runCrmJson<{ workspace: { id: string } }>(
    ['bootstrap', '--org', 'Bench', '--workspace', 'Bench', '--email', 'bench@example.test', '--password', 'bench password 123', '--default-country', 'US'],
    env,
  );
  const workspaceId = boot.workspace.id;
  const { token } = await runCrmJson<{ token: string }>(['tokens', 'create', '--workspace', workspaceId, '--scopes', 'contacts:read,contacts:write'], env);

  const db = new pg.Client({ connectionString: dbUrl });
  await db.connect();
  process.stdout.write(`Seeding ${contactCount.toLocaleString('en')} contacts… `);
  await db.query(
    `insert into contacts (id, workspace_id, first_name, last_name, email, phone, status, custom_fields, created_at, updated_at)
     select 'con_B' || lpad(i::text, 10, '0'), $1, 'First' || i, 'Last' || i, 'person' || i || '@example.test',
            '+1650' || lpad((2000000 + i)::text, 7, '0'), 'active', '{}',
            timestamptz '2025-01-01' + i * interval '1 second', timestamptz '2025-01-01' + i * interval '1 second'
     from generate_series(1, $2::int) as i`,
    [workspaceId, contactCount],
  );
  await db.query('analyze contacts');
  process.stdout.write('done\n');

  const deepOffset = Math.min(90_000, contactCount - 100);
  const deepRow = (await db.query<{ id: string; created_at: Date }>(
    'select id, created_at from contacts where workspace_id = $1 order by created_at, id offset $2 limit 1',
    [workspaceId, deepOffset - 1],
  )).rows[0];
  if (!deepRow) throw new Error('no row for the deep page');
  const deepCursor = encodeCursor(deriveSecrets(secret).cursorKey, { workspaceId, list: 'contacts', filters: {} }, { createdAt: deepRow.created_at, id: deepRow.id });

  const auth = { authorization: `Bearer ${token}` };
  let phone = 0;
  const newContact = () => {
    const n = phone++;
    return JSON.stringify({ first_name: `Bench ${n}`, phone: `+1415${200 + (Math.floor(n / 10_000) % 800)}${String(n % 10_000).padStart(4, '0')}` });
  };

  const run = (name: string, url: string, extra: { method?: 'POST'; body?: () => string; headers?: Record<string, string> } = {}) =>
    load({ name, url, connections, durationSeconds: duration, headers: { ...auth, ...extra.headers }, method: extra.method, body: extra.body });

  // Warm-up: JIT, pools, caches.
  await load({ name: 'warm-up', url: `${baseUrl}/v1/contacts?limit=100`, headers: auth, connections, durationSeconds: 3 });

  const basePort = await freePort();
  const baseline = spawnQuiet([], { ...env, PORT: String(basePort), WORKSPACE_ID: workspaceId }, path.join(ROOT, 'bench', 'baseline-server.ts'));
  children.push(baseline);
  const baselineUrl = `http://127.0.0.1:${basePort}/v1/contacts?limit=100`;
  await waitReady(`http://127.0.0.1:${basePort}/v1/contacts?limit=1`);
  await load({ name: 'warm-up', url: baselineUrl, connections, durationSeconds: 3 });

  const results: LoadResult[] = [];
  results.push(await run('GET /v1/me', `${baseUrl}/v1/me`));
  const firstRounds: LoadResult[] = [];
  const baseRounds: LoadResult[] = [];
  for (let round = 0; round < rounds; round++) {
    firstRounds.push(await run('GET /v1/contacts?limit=100 (first page)', `${baseUrl}/v1/contacts?limit=100`));
    baseRounds.push(await load({ name: 'baseline: express + pg, same list query', url: baselineUrl, connections, durationSeconds: duration }));
  }
  results.push(median(firstRounds));
  results.push(await run(`GET /v1/contacts?limit=100 (${deepOffset.toLocaleString('en')} rows deep)`, `${baseUrl}/v1/contacts?limit=100&cursor=${deepCursor}`));
  results.push(await run('POST /v1/contacts', `${baseUrl}/v1/contacts`, { method: 'POST', body: newContact, headers: { 'content-type': 'application/json' } }));
  const base = median(baseRounds);
  results.push(base);
  await db.end();

  const [me, first, deep, post] = results;
  process.stdout.write(`\nlist rounds (req/s): service ${firstRounds.map((r) => r.rps).join(', ')}; baseline ${baseRounds.map((r) => r.rps).join(', ')}\n`);
  const ratio = (first?.rps ?? 0) / base.rps;
  const deepRatio = (deep?.p50 ?? 0) / Math.max(first?.p50 ?? 1, 0.001);
  const worstP99 = Math.max(...[me, first, deep, post].map((r) => r?.p99 ?? 0));
  const mark = (ok: boolean) => (ok ? 'PASS' : 'FAIL');

  process.stdout.write(`\n${contactCount.toLocaleString('en')} contacts, ${connections} connections, ${duration} s per scenario (list and baseline: median of ${rounds}), Node ${process.version}\n\n`);
  process.stdout.write(`${formatTable(results)}\n\n`);
  process.stdout.write(`list throughput vs baseline: ${(ratio * 100).toFixed(0)}%   (bar: >= 50%)  ${mark(ratio >= 0.5)}\n`);
  process.stdout.write(`deep page p50 / first page p50: ${deepRatio.toFixed(2)}x   (bar: <= 1.5x)  ${mark(deepRatio <= 1.5)}\n`);
  process.stdout.write(`worst p99 of the service: ${worstP99.toFixed(1)} ms   (bar: < 50 ms)  ${mark(worstP99 < 50)}\n`);
  const errors = results.reduce((n, r) => n + r.errors + r.non2xx, 0);
  process.stdout.write(`errors and non-2xx responses: ${errors}\n`);
} finally {
  await stopAll(children);
  await admin.query(`drop database if exists ${dbName} with (force)`);
  await admin.end();
}

/** The run with the median throughput. */
function median(runs: LoadResult[]): LoadResult {
  const sorted = [...runs].sort((a, b) => a.rps - b.rps);
  return sorted[Math.floor(sorted.length / 2)] as LoadResult;
}

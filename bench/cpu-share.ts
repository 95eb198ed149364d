/**
 * `npm run bench -- --cpu-share`: CPU time per request, process by process, for the hot
 * path and for the express + pg baseline serving the same rows. Read from /proc around
 * each timed run, so it costs the processes nothing (a profiler would). It says where a
 * request's CPU goes: gateway, each worker, Postgres, NATS, and the load generator.
 *
 *   npm run bench -- --cpu-share [--scenario all|list|deals|mcp|create|webhook] [--duration 8] [--connections 8] [--rounds 2]
 *
 * `webhook` is `create` with a webhook endpoint for contact.created (a receiver in this
 * process); its figures run until every delivery has arrived.
 */
import path from 'node:path';
import type { ChildProcess } from 'node:child_process';
import pg from 'pg';
import { startBenchStack } from './bench-stack.js';
import { drained, startReceiver } from './events.js';
import { cpuSecondsOf, cpuSecondsOfCommand } from './cpu-time.js';
import { formatColumns, load, type LoadResult } from './load.js';
import { freePort, ROOT, waitReady } from './processes.js';
import { seedContacts } from './seed-contacts.js';
import { seedDeals } from './seed-deals.js';

const SEED_ROWS = 10_000;

interface Scenario {
  name: string;
  url: string;
  method?: 'GET' | 'POST';
  headers: Record<string, string>;
  body?: () => string;
  /** Runs after the load, before the CPU is read again (e.g. until deliveries arrive). */
  settle?: () => Promise<void>;
}

export async function runCpuShare(options: { scenario: string; durationSeconds: number; connections: number; rounds: number; env?: Record<string, string> }): Promise<void> {
  const stack = await startBenchStack({ env: { WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true', ...options.env } });
  const receiver = await startReceiver();
  try {
    const db = new pg.Client({ connectionString: stack.dbUrl, application_name: 'bench' });
    await db.connect();
    db.on('error', () => undefined);
    await seedContacts(db, stack.workspaceId, SEED_ROWS, 'con_S');
    const stage = (await seedDeals(db, stack.workspaceId, SEED_ROWS, 'deal_S'))[2]?.id ?? '';
    await db.query('vacuum analyze contacts');
    await db.query('vacuum analyze deals');

    const basePort = await freePort();
    const baseline = stack.spawn([], { ...stack.env, PORT: String(basePort), WORKSPACE_ID: stack.workspaceId }, path.join(ROOT, 'bench', 'baseline-server.ts'));
    const baselineUrl = `http://127.0.0.1:${basePort}`;
    await waitReady(`${baselineUrl}/v1/contacts?limit=1`);

    const processes = new Map<string, ChildProcess>([['gateway', stack.gateway], ['baseline', baseline]]);
    for (const [name, children] of stack.workers) children.forEach((child, i) => processes.set(children.length > 1 ? `${name} worker ${i + 1}` : `${name} worker`, child));

    const auth = { authorization: `Bearer ${stack.token}` };
    let n = 0;
    const create: Scenario = {
      name: 'POST /v1/contacts',
      url: `${stack.baseUrl}/v1/contacts`,
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: () => JSON.stringify({ first_name: `Measured ${n}`, phone: `+1415${String(3_000_000 + n++).padStart(7, '0')}` }),
    };
    const scenarios: (Scenario & { kind: string })[] = [
      { kind: 'list', name: 'baseline GET contacts?limit=100', url: `${baselineUrl}/v1/contacts?limit=100`, headers: {} },
      { kind: 'list', name: 'GET /v1/contacts?limit=100', url: `${stack.baseUrl}/v1/contacts?limit=100`, headers: auth },
      { kind: 'deals', name: 'baseline GET deals?limit=100&stage_id=…', url: `${baselineUrl}/v1/deals?limit=100&stage_id=${stage}`, headers: {} },
      { kind: 'deals', name: 'GET /v1/deals?limit=100&stage=…', url: `${stack.baseUrl}/v1/deals?limit=100&stage=${stage}`, headers: auth },
      {
        kind: 'mcp',
        name: 'MCP find_contacts limit 100',
        url: `${stack.baseUrl}/mcp/crm`,
        method: 'POST',
        headers: { ...auth, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        body: () => JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'find_contacts', arguments: { limit: 100 } } }),
      },
      { kind: 'create', ...create },
      // The same writes, each delivered to a receiver before the CPU is read again.
      { kind: 'webhook', ...create, name: 'POST /v1/contacts, a webhook endpoint for contact.created', settle: () => drained(receiver.count) },
    ];
    if (options.scenario === 'all' || options.scenario === 'webhook') {
      const created = await fetch(`${stack.baseUrl}/v1/webhook-endpoints`, {
        method: 'POST',
        headers: { ...auth, 'content-type': 'application/json' },
        body: JSON.stringify({ url: receiver.url, enabled_events: ['contact.created'] }),
      });
      if (created.status !== 201) throw new Error(`webhook endpoint not created: ${created.status}`);
    }

    for (let round = 1; round <= options.rounds; round++) {
      for (const scenario of scenarios.filter((s) => options.scenario === 'all' || s.kind === options.scenario)) {
        await drive(scenario, options.connections, 2);
        await scenario.settle?.();
        const delivered = receiver.count();
        const before = await sample(processes, db);
        const started = process.cpuUsage();
        const { requests, rps } = await drive(scenario, options.connections, options.durationSeconds);
        await scenario.settle?.();
        const usage = process.cpuUsage(started);
        const after = await sample(processes, db);
        // Postgres's lines split its total (they are not added to it); a backend that closed meanwhile is in the total only.
        const rows = [...after.entries()]
          .map(([name, seconds]) => [name, ((seconds - (before.get(name) ?? 0)) * 1e6) / requests] as const)
          .filter(([, micros]) => micros >= 5);
        const parts = rows.filter(([name]) => name.startsWith('  postgres: '));
        const whole = rows.filter(([name]) => !name.startsWith('  postgres: '));
        whole.push(['load generator', (usage.user + usage.system) / requests]);
        const total = whole.reduce((sum, [, micros]) => sum + micros, 0);
        const deliveries = scenario.settle ? `, ${receiver.count() - delivered} deliveries` : '';
        process.stdout.write(
          `${scenario.name} (round ${round}): ${rps} req/s${deliveries}, ${Math.round(total)} µs of CPU per request\n` +
            `${formatColumns([['process', 'µs/request'], ...[...whole, ...parts].map(([name, micros]) => ['  ' + name, String(Math.round(micros))])])}\n\n`,
        );
      }
    }
    await db.end();
  } finally {
    await stack.stop();
    await receiver.close();
  }
}

/**
 * CPU seconds so far of each service process, the NATS server and Postgres: in all, and
 * split by who it served (a backend's application name, or its kind: autovacuum, WAL writer…).
 */
async function sample(processes: Map<string, ChildProcess>, db: pg.Client): Promise<Map<string, number>> {
  const seconds = new Map<string, number>();
  for (const [name, child] of processes) seconds.set(name, cpuSecondsOf(child.pid));
  seconds.set('nats-server', cpuSecondsOfCommand('nats-server'));
  const backends = await db.query<{ pid: number; who: string }>(
    `select pid, case when backend_type = 'client backend' then coalesce(nullif(application_name, ''), 'client') else backend_type end as who from pg_stat_activity`,
  );
  seconds.set('postgres', cpuSecondsOfCommand('postgres'));
  for (const { pid, who } of backends.rows) {
    const key = `  postgres: ${who}`;
    seconds.set(key, (seconds.get(key) ?? 0) + cpuSecondsOf(pid));
  }
  return seconds;
}

async function drive(scenario: Scenario, connections: number, durationSeconds: number): Promise<LoadResult> {
  const result = await load({ ...scenario, connections, durationSeconds });
  if (result.non2xx + result.errors > 0) throw new Error(`${scenario.name}: ${result.non2xx} non-2xx, ${result.errors} errors`);
  return result;
}

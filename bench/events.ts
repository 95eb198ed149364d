/**
 * What the change history costs, and how fast it reaches a webhook endpoint:
 *
 * - Write throughput (`POST /v1/contacts`) with events and one webhook endpoint enabled
 *   (stack A) against the same service with `EVENTS_RECORDING=off` and no endpoint (stack B),
 *   rounds alternated, medians compared. Bar: at least 85%.
 * - Commit-to-delivery latency at a steady 200 writes/s on stack A: from the event's
 *   `created_at` (stamped in the write's transaction) to the receiver on 127.0.0.1. Bars:
 *   p50 under 100 ms, p99 under 1 s.
 * - `crm import contacts` with one event per created contact (A, its webhook endpoint
 *   disabled by then) against none (B). Bar: at most 20% slower.
 *
 *   npx tsx bench/events.ts [--duration 8] [--connections 8] [--rounds 3] [--import-rows 20000]
 *
 * Both stacks run at once (gateway and workers as separate processes, real NATS and
 * Postgres); each round waits until A has delivered everything, so A's relay and
 * deliveries do not run during B's round.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { startBenchStack, type BenchStack } from './bench-stack.js';
import { benchImportContacts } from './import-contacts.js';
import { formatTable, load, percentile, timed, toLoadResult, type LoadResult } from './load.js';

export interface EventsBenchOptions {
  durationSeconds: number;
  connections: number;
  rounds: number;
  importRows: number;
}

/** A webhook receiver that answers 200 at once and notes when each contact event arrived. */
export async function startReceiver(): Promise<{ url: string; latencies: number[]; count: () => number; close: () => Promise<void> }> {
  const latencies: number[] = [];
  let count = 0;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const arrived = Date.now();
      count++;
      const event = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { type: string; created_at: string };
      if (event.type === 'contact.created') latencies.push(arrived - Date.parse(event.created_at));
      res.writeHead(200).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    latencies,
    count: () => count,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

function median(runs: LoadResult[]): LoadResult {
  return [...runs].sort((a, b) => a.rps - b.rps)[Math.floor(runs.length / 2)] as LoadResult;
}

/** Waits until the receiver has stopped receiving for a second (A's backlog delivered). */
export async function drained(count: () => number, timeoutMs = 60_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  let last = -1;
  while (Date.now() < until) {
    const now = count();
    if (now === last) return;
    last = now;
    await new Promise((r) => setTimeout(r, 1_000));
  }
}

/** Waits until the relay has published every recorded event, and a second more for the consumer. */
async function relayed(dbUrl: string, timeoutMs = 120_000): Promise<void> {
  const db = new pg.Client({ connectionString: dbUrl, application_name: 'bench' });
  await db.connect();
  try {
    const until = Date.now() + timeoutMs;
    while (Date.now() < until && (await db.query<{ n: string }>('select count(*) as n from event_outbox')).rows[0]?.n !== '0') {
      await new Promise((r) => setTimeout(r, 250));
    }
    await new Promise((r) => setTimeout(r, 1_000));
  } finally {
    await db.end();
  }
}

export async function benchEvents(options: EventsBenchOptions): Promise<{ text: string; passed: boolean }> {
  const receiver = await startReceiver();
  const stacks: BenchStack[] = [];
  try {
    const withEvents = await startBenchStack({ env: { WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true' } });
    stacks.push(withEvents);
    const without = await startBenchStack({ env: { EVENTS_RECORDING: 'off' } });
    stacks.push(without);
    const endpoint = await fetch(`${withEvents.baseUrl}/v1/webhook-endpoints`, {
      method: 'POST',
      headers: { authorization: `Bearer ${withEvents.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ url: receiver.url, enabled_events: ['contact.created'] }),
    });
    if (endpoint.status !== 201) throw new Error(`webhook endpoint not created: ${endpoint.status} ${await endpoint.text()}`);

    let phone = 0;
    const newContact = () => {
      const n = phone++;
      return JSON.stringify({ first_name: `Event ${n}`, phone: `+1415${200 + (Math.floor(n / 10_000) % 800)}${String(n % 10_000).padStart(4, '0')}` });
    };
    const post = (stack: BenchStack, name: string, durationSeconds: number) =>
      load({
        name,
        url: `${stack.baseUrl}/v1/contacts`,
        method: 'POST',
        body: newContact,
        headers: { authorization: `Bearer ${stack.token}`, 'content-type': 'application/json' },
        connections: options.connections,
        durationSeconds,
      });

    await post(withEvents, 'warm-up', 2);
    await drained(receiver.count);
    await post(without, 'warm-up', 2);

    const ours: LoadResult[] = [];
    const theirs: LoadResult[] = [];
    for (let round = 0; round < options.rounds; round++) {
      ours.push(await post(withEvents, 'POST /v1/contacts, events + 1 webhook endpoint', options.durationSeconds));
      await drained(receiver.count);
      theirs.push(await post(without, 'POST /v1/contacts, EVENTS_RECORDING=off', options.durationSeconds));
    }
    const a = median(ours);
    const b = median(theirs);
    const ratio = a.rps / b.rps;

    // A steady 200 writes/s, as a busy workspace's integrations would see it.
    receiver.latencies.length = 0;
    const [steady, steadyLatencies] = await timed({
      url: `${withEvents.baseUrl}/v1/contacts`,
      method: 'POST',
      headers: { authorization: `Bearer ${withEvents.token}`, 'content-type': 'application/json' },
      connections: options.connections,
      overallRate: 200,
      duration: 10,
      requests: [{ setupRequest: (req) => ({ ...req, body: newContact() }) }],
    });
    await drained(receiver.count);
    const p50 = percentile(receiver.latencies, 50);
    const p99 = percentile(receiver.latencies, 99);

    // The import's bar is about recording: the endpoint stops receiving first, so 20,000
    // deliveries do not compete with the import for the same two cores.
    const { id: endpointId } = (await endpoint.json()) as { id: string };
    await fetch(`${withEvents.baseUrl}/v1/webhook-endpoints/${endpointId}`, {
      method: 'PATCH',
      headers: { authorization: `Bearer ${withEvents.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ status: 'disabled' }),
    });
    // Alternated and compared by medians like the writes: one import of each varied by half.
    const importsWith: number[] = [];
    const importsWithout: number[] = [];
    for (let round = 0; round < options.rounds; round++) {
      importsWith.push((await benchImportContacts({ env: withEvents.env, rows: options.importRows })).seconds);
      await relayed(withEvents.dbUrl); // its relay's backlog would otherwise slow the import without events
      importsWithout.push((await benchImportContacts({ env: without.env, rows: options.importRows })).seconds);
    }
    const importWith = percentile(importsWith, 50);
    const importWithout = percentile(importsWithout, 50);
    const slower = importWith / importWithout - 1;

    const verdict = (ok: boolean) => (ok ? 'PASS' : 'FAIL');
    const lines = [
      formatTable([a, b, toLoadResult('POST /v1/contacts at a steady 200/s (events + webhook)', steady, steadyLatencies)]),
      '',
      `write throughput with events and a webhook endpoint: ${(ratio * 100).toFixed(0)}% of without (>= 85%) ${verdict(ratio >= 0.85)}` +
        `   [rounds: ${ours.map((r) => r.rps).join('/')} vs ${theirs.map((r) => r.rps).join('/')}]`,
      `commit to webhook delivery at 200 writes/s (${receiver.latencies.length} deliveries): p50 ${p50.toFixed(0)} ms (< 100 ms) ${verdict(p50 < 100)}, p99 ${p99.toFixed(0)} ms (< 1000 ms) ${verdict(p99 < 1000)}`,
      `crm import contacts, ${options.importRows.toLocaleString('en')} rows: ${importWith.toFixed(1)} s with an event per contact, ${importWithout.toFixed(1)} s without: ${(slower * 100).toFixed(0)}% slower (<= 20%) ${verdict(slower <= 0.2)}` +
        `   [rounds: ${importsWith.map((s) => s.toFixed(1)).join('/')} vs ${importsWithout.map((s) => s.toFixed(1)).join('/')} s]`,
    ];
    const passed = ratio >= 0.85 && p50 < 100 && p99 < 1000 && slower <= 0.2;
    return { text: lines.join('\n'), passed };
  } finally {
    await Promise.all(stacks.map((s) => s.stop()));
    await receiver.close();
  }
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      duration: { type: 'string', default: '8' },
      connections: { type: 'string', default: '8' },
      rounds: { type: 'string', default: '3' },
      'import-rows': { type: 'string', default: '20000' },
    },
  });
  const result = await benchEvents({
    durationSeconds: Number(values.duration),
    connections: Number(values.connections),
    rounds: Number(values.rounds),
    importRows: Number(values['import-rows']),
  });
  process.stdout.write(`${result.text}\n`);
  if (!result.passed) process.exitCode = 1;
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) await main();

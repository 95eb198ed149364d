/**
 * `npm run bench -- --soak`: list throughput with one contacts worker and then two, and a
 * two-minute mixed load (70% reads, 25% creates, 5% tool calls) with the memory of every
 * process sampled as it runs. The figures are printed with their verdicts; errors must be 0.
 */
import type { ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import type autocannon from 'autocannon';
import pg from 'pg';
import { startBenchStack } from './bench-stack.js';
import { formatColumns, formatTable, load, timed, toLoadResult, type LoadResult } from './load.js';

const SEED_CONTACTS = 20_000;
const SAMPLE_EVERY_MS = 15_000;
const SCALING_SECONDS = 12;
/**
 * A contacts worker's CPU share in the held measurement: well under what one worker uses
 * at this load, so the worker tier is what limits throughput, as when each worker runs
 * on a machine (or under a container limit) of its own.
 */
const WORKER_CPUS = 0.25;

/** Resident memory of a process in MiB, from /proc (Linux). */
function rssMiB(child: ChildProcess): number {
  try {
    const status = readFileSync(`/proc/${child.pid}/status`, 'utf8');
    return Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? 0) / 1024;
  } catch {
    return 0;
  }
}

/** Runs the soak and prints its figures; true when every verdict passed (memory too short to judge is no failure). */
export async function runSoak(options: { seconds: number; connections: number }): Promise<boolean> {
  const { seconds, connections } = options;
  const stack = await startBenchStack();
  try {
    const db = new pg.Client({ connectionString: stack.dbUrl });
    await db.connect();
    await db.query(
      `insert into contacts (id, workspace_id, first_name, last_name, email, phone, status, custom_fields, created_at, updated_at)
       select 'con_S' || lpad(i::text, 10, '0'), $1, 'First' || i, 'Last' || i, 'person' || i || '@example.test',
              '+1650' || lpad((2000000 + i)::text, 7, '0'), 'active', '{}', now() - i * interval '1 second', now() - i * interval '1 second'
       from generate_series(1, $2::int) as i`,
      [stack.workspaceId, SEED_CONTACTS],
    );
    await db.query('vacuum analyze contacts');
    await db.end();

    const auth = { authorization: `Bearer ${stack.token}` };
    const listUrl = `${stack.baseUrl}/v1/contacts?limit=100`;

    // Scaling: the same list load against one contacts worker, then two; first unlimited, then
    // each worker held to a share of a CPU (see cpu-quota.ts for why both are printed).
    const listLoad = async (name: string) => {
      await load({ name: 'warm-up', url: listUrl, headers: auth, connections, durationSeconds: 3 });
      return load({ name, url: listUrl, headers: auth, connections, durationSeconds: SCALING_SECONDS });
    };
    const [first] = stack.workers.get('contacts') ?? [];
    if (!first) throw new Error('no contacts worker');
    // Both workers are warmed up unlimited before being held: a worker that compiles its hot
    // paths under a quota spends its share on the compiler.
    const oneFree = await listLoad('GET /v1/contacts?limit=100, 1 contacts worker');
    const share = `${WORKER_CPUS} CPU`;
    const canLimit = await stack.limitCpu(first, WORKER_CPUS);
    const oneHeld = canLimit ? await listLoad(`GET /v1/contacts?limit=100, 1 contacts worker held to ${share}`) : null;
    await stack.limitCpu(first, null);
    const second = await stack.addWorker('contacts');
    await load({ name: 'warm-up', url: listUrl, headers: auth, connections, durationSeconds: 5 });
    const twoFree = await listLoad('GET /v1/contacts?limit=100, 2 contacts workers');
    let twoHeld: LoadResult | null = null;
    if (canLimit) {
      await stack.limitCpu(first, WORKER_CPUS);
      await stack.limitCpu(second, WORKER_CPUS);
      twoHeld = await listLoad(`GET /v1/contacts?limit=100, 2 contacts workers held to ${share} each`);
      await stack.limitCpu(first, null);
      await stack.limitCpu(second, null);
    }
    const held = oneHeld && twoHeld ? [oneHeld, twoHeld] as const : null;
    const scaling = [oneFree, twoFree, ...(held ?? [])];

    // The mixed soak, against the two contacts workers.
    const processes: [string, ChildProcess][] = [['gateway', stack.gateway]];
    for (const [name, copies] of stack.workers) copies.forEach((c, i) => processes.push([`worker ${name}${copies.length > 1 ? ` #${i + 1}` : ''}`, c]));
    const samples: { at: number; rss: number[] }[] = [];
    const sample = (at: number) => samples.push({ at, rss: processes.map(([, c]) => rssMiB(c)) });
    sample(0);
    const started = Date.now();
    const sampler = setInterval(() => sample(Math.round((Date.now() - started) / 1000)), SAMPLE_EVERY_MS);

    let phone = 0;
    const json = { ...auth, 'content-type': 'application/json' };
    const read = (path: string) => ({ method: 'GET' as const, path, headers: auth });
    const create = {
      method: 'POST' as const,
      path: '/v1/contacts',
      headers: json,
      setupRequest: (req: autocannon.Request) => {
        const n = phone++;
        return { ...req, body: JSON.stringify({ first_name: `Soak ${n}`, phone: `+1415${String(2_000_000 + n).padStart(7, '0')}` }) };
      },
    };
    const toolCall = {
      method: 'POST' as const,
      path: '/mcp/crm',
      headers: { ...json, accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'find_contacts', arguments: { limit: 10 } } }),
    };
    // 20 requests per cycle: 14 reads (70%), 5 creates (25%), 1 tool call (5%).
    const reads = [
      read('/v1/contacts?limit=25'),
      read('/v1/contacts/con_S0000000042'),
      read('/v1/contacts?limit=25&q=First12'),
      read('/v1/deals?limit=25'),
      read('/v1/me'),
      read('/v1/contacts?limit=25&status=active'),
      read('/v1/contacts/con_S0000001234'),
    ];
    const cycle = [...reads, create, ...reads, create, create, create, create, toolCall];

    const [result, latencies] = await timed({ url: stack.baseUrl, connections, duration: seconds, requests: cycle });
    clearInterval(sampler);
    // The end, unless the sampler has just taken it.
    const end = Math.round((Date.now() - started) / 1000);
    if ((samples.at(-1)?.at ?? -1) < end) sample(end);

    const mixed = toLoadResult(`mixed ${seconds} s: 70% reads, 25% creates, 5% tool calls`, result, latencies);
    const errors = mixed.errors + mixed.non2xx;

    const out = process.stdout;
    out.write(`\n${SEED_CONTACTS.toLocaleString('en')} seeded contacts, ${connections} connections, Node ${process.version}\n\n`);
    out.write(`${formatTable([...scaling, mixed])}\n\n`);
    const gain = (one: LoadResult, two: LoadResult) => ({ ratio: two.rps / one.rps, text: `${((two.rps / one.rps) * 100).toFixed(0)}% of 1 worker (${one.rps} -> ${two.rps} req/s)` });
    let passed = true;
    const mark = (ok: boolean, pass = 'PASS', fail = 'FAIL') => {
      if (!ok) passed = false;
      return ok ? pass : fail;
    };
    out.write(`list throughput with 2 contacts workers, unlimited: ${gain(oneFree, twoFree).text} (all processes share the same ${availableParallelism()} cores)\n`);
    if (held) {
      const { ratio, text } = gain(...held);
      out.write(`list throughput with 2 contacts workers, each held to ${share}: ${text} ${mark(ratio > 1.5)} (> 150%)\n`);
    } else {
      out.write('list throughput with workers held to a CPU share: not measured (needs root and the cgroup cpu controller)\n');
    }
    out.write(`mixed load: ${result.requests.total.toLocaleString('en')} requests, ${mixed.rps} req/s, p50 ${mixed.p50} ms, p99 ${mixed.p99} ms, errors ${errors} ${mark(errors === 0)}\n\n`);

    out.write(`${formatColumns([['RSS MiB', ...samples.map((s) => `${s.at} s`)], ...processes.map(([name], i) => [name, ...samples.map((s) => (s.rss[i] ?? 0).toFixed(0))])])}\n`);
    // Growth is judged after warm-up (the first sample taken under load) to the end, and only
    // when a whole sampling interval separates them: in a shorter run the "warm-up" sample is
    // the end sample, or seconds from it, and a PASS would mean nothing.
    const warmSample = samples[1];
    const endSample = samples.at(-1);
    const judged = warmSample !== undefined && endSample !== undefined && endSample.at - warmSample.at >= SAMPLE_EVERY_MS / 1000;
    for (const [i, [name]] of processes.entries()) {
      const warm = warmSample?.rss[i] ?? 0;
      const end = endSample?.rss[i] ?? 0;
      const verdict = judged ? mark(end <= warm * 1.2 + 5, 'PASS (no growth trend)', 'CHECK (grew more than 20%)') : 'not judged (run too short)';
      out.write(`${name}: ${warm.toFixed(0)} MiB after warm-up -> ${end.toFixed(0)} MiB at the end ${verdict}\n`);
    }
    return passed;
  } finally {
    await stack.stop();
  }
}

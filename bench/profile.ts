/**
 * `npm run bench -- --profile`: where the hot path spends its CPU. Starts the bench stack
 * with every service process under `node --cpu-prof`, seeds contacts, drives one scenario
 * with autocannon, stops the processes (each writes its profile on exit) and prints the
 * gateway's and the contacts worker's costs by package and by function. The profiles stay
 * in `.profiles/` (out of git) for Chrome DevTools or speedscope.
 *
 *   npm run bench -- --profile [--scenario list|deals|mcp|create|webhook] [--duration 15] [--connections 8]
 *
 * `webhook` is `create` with a webhook endpoint for contact.created (a receiver in this
 * process), and prints the webhooks worker's costs as well; `deals` lists deals of one stage
 * (the bench's deal list) and prints the deals worker's costs instead of the contacts worker's.
 */
import { mkdirSync, readdirSync } from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { startBenchStack } from './bench-stack.js';
import { drained, startReceiver } from './events.js';
import { formatSummary, summarizeCpuProfile } from './cpu-profile-summary.js';
import { formatTable, load } from './load.js';
import { ROOT } from './processes.js';
import { seedContacts } from './seed-contacts.js';
import { seedDeals } from './seed-deals.js';

export type ProfileScenario = 'list' | 'deals' | 'mcp' | 'create' | 'webhook';

const SEED_ROWS = 10_000;

export async function runProfile(options: { scenario: ProfileScenario; durationSeconds: number; connections: number }): Promise<void> {
  const dir = path.join(ROOT, '.profiles', `${options.scenario}-${new Date().toISOString().replace(/[:.]/g, '-')}`);
  mkdirSync(dir, { recursive: true });
  const webhook = options.scenario === 'webhook';
  const stack = await startBenchStack({ nodeFlags: ['--cpu-prof', `--cpu-prof-dir=${dir}`], env: webhook ? { WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true' } : {} });
  let receiver: Awaited<ReturnType<typeof startReceiver>> | null = null;
  const roles = new Map<number | undefined, string>([[stack.gateway.pid, 'gateway']]);
  for (const [name, children] of stack.workers) for (const child of children) roles.set(child.pid, `${name} worker`);
  try {
    if (webhook) receiver = await startReceiver();
    const db = new pg.Client({ connectionString: stack.dbUrl });
    await db.connect();
    db.on('error', () => undefined);
    await seedContacts(db, stack.workspaceId, SEED_ROWS, 'con_P');
    const stage = (await seedDeals(db, stack.workspaceId, SEED_ROWS, 'deal_P'))[2]?.id ?? '';
    await db.query('vacuum analyze contacts');
    await db.query('vacuum analyze deals');
    await db.end();

    const headers: Record<string, string> = { authorization: `Bearer ${stack.token}` };
    let n = 0;
    if (receiver) {
      const created = await fetch(`${stack.baseUrl}/v1/webhook-endpoints`, {
        method: 'POST',
        headers: { ...headers, 'content-type': 'application/json' },
        body: JSON.stringify({ url: receiver.url, enabled_events: ['contact.created'] }),
      });
      if (created.status !== 201) throw new Error(`webhook endpoint not created: ${created.status}`);
    }
    const create = {
      url: `${stack.baseUrl}/v1/contacts`,
      method: 'POST' as const,
      headers: { 'content-type': 'application/json' },
      body: () => JSON.stringify({ first_name: `Profiled ${n}`, phone: `+1415${String(2_000_000 + n++).padStart(7, '0')}` }),
    };
    const scenario = {
      list: { url: `${stack.baseUrl}/v1/contacts?limit=100` },
      deals: { url: `${stack.baseUrl}/v1/deals?limit=100&stage=${stage}` },
      mcp: {
        url: `${stack.baseUrl}/mcp/crm`,
        method: 'POST' as const,
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        body: () => JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'find_contacts', arguments: { limit: 100 } } }),
      },
      create,
      webhook: create,
    }[options.scenario];
    const run = { ...scenario, name: `${options.scenario} under profile`, headers: { ...headers, ...('headers' in scenario ? scenario.headers : {}) }, connections: options.connections };
    await load({ ...run, name: 'warm-up', durationSeconds: 3 });
    // The warm-up's deliveries are sent before the measured run, not during it.
    if (receiver) await drained(receiver.count);
    process.stdout.write(`${formatTable([await load({ ...run, durationSeconds: options.durationSeconds })])}\n\n`);
    if (receiver) await drained(receiver.count);
  } finally {
    await stack.stop();
    await receiver?.close();
  }
  for (const file of readdirSync(dir)) {
    // Node's own name: CPU.<date>.<time>.<pid>.<thread>.<seq>.cpuprofile
    const pid = Number(/^CPU\.\d+\.\d+\.(\d+)\./.exec(file)?.[1]);
    const role = roles.get(pid);
    const worker = options.scenario === 'deals' ? 'deals worker' : 'contacts worker';
    if (role !== 'gateway' && role !== worker && !(webhook && role === 'webhooks worker')) continue;
    process.stdout.write(`${formatSummary(`${role} (${path.join(dir, file)})`, summarizeCpuProfile(path.join(dir, file)))}\n\n`);
  }
}

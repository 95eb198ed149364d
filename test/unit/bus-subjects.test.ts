import { readdirSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import t from 'tap';
import { z } from 'zod';
import { defineEvent, eventSubjectOf } from '../../shared/bus/bus-event.js';
import { InProcessTransport } from '../../shared/bus/in-process-transport.js';
import { defineOperation, queueOf, subjectOf, WORKER_NAMES, type Operation } from '../../shared/bus/operation.js';
import type { BusHandler, BusSubscription } from '../../shared/bus/transport.js';
import { GRANT_CHANGED_EVENT, SIGNING_KEYS_CHANGED_EVENT, TOKEN_REVOKED_EVENT } from '../../shared/contracts/broadcasts.js';
import { healthOf } from '../../shared/contracts/health.js';
import type { Orm } from '../../shared/db/orm.js';
import { loadConfig } from '../../shared/config.js';
import { createLogger } from '../../shared/logger.js';
import type { Secrets } from '../../shared/secrets.js';
import { WORKERS } from '../../workers/index.js';
import { startWorkers } from '../../workers/runtime/start-workers.js';

const NS = 'crm';
const SUBJECT = new RegExp(`^crm\\.(${WORKER_NAMES.join('|')})\\.[a-z][a-z0-9]*(-[a-z0-9]+)*\\.[a-z][a-z0-9]*(-[a-z0-9]+)*$`);
/** The contracts beside this file's own build: sources, or compiled into dist-test/. */
const CONTRACTS = path.join(import.meta.dirname, '../../shared/contracts');

/** Records what a worker subscribes to, in which queue group. */
class RecordingTransport extends InProcessTransport {
  readonly subscribed: { subject: string; queue: string }[] = [];
  override subscribe(subject: string, queue: string, handler: BusHandler): BusSubscription {
    this.subscribed.push({ subject, queue });
    return super.subscribe(subject, queue, handler);
  }
}

function isOperation(value: unknown): value is Operation {
  return typeof value === 'object' && value !== null && 'worker' in value && 'resource' in value && 'verb' in value && 'input' in value;
}

/** Every operation the contracts export, whatever module it is in. */
async function contractOperations(): Promise<Operation[]> {
  const ops: Operation[] = [];
  for (const file of readdirSync(CONTRACTS).filter((f) => /\.[jt]s$/.test(f))) {
    const module = (await import(pathToFileURL(path.join(CONTRACTS, file)).href)) as Record<string, unknown>;
    ops.push(...Object.values(module).filter(isOperation));
  }
  return ops;
}

/** The subscriptions one worker makes when started; nothing is called, so no database is needed. */
async function subscriptionsOf(worker: keyof typeof WORKERS): Promise<{ subject: string; queue: string }[]> {
  const bus = new RecordingTransport();
  // The services are only reached by handlers and upkeep, neither of which runs here.
  const services = { orm: {} as Orm, secrets: {} as Secrets, bus, busNamespace: NS, broadcasts: bus, webhooks: loadConfig({}).webhooks, events: loadConfig({}).events };
  const running = startWorkers([WORKERS[worker]], services, createLogger({ level: 'silent', component: 'test' }), 1, { background: false });
  await running.drain();
  return bus.subscribed;
}

t.test('each worker subscribes, in its own queue group, to exactly its operations and its health check', async (t) => {
  const ops = await contractOperations();
  const served = new Set<string>();
  for (const worker of WORKER_NAMES) {
    const subscriptions = await subscriptionsOf(worker);
    const expected = [...ops.filter((op) => op.worker === worker), healthOf(worker)].map((op) => subjectOf(NS, op)).sort();
    t.same(subscriptions.map((s) => s.subject).sort(), expected, `${worker}: the subjects of its contracts, each once`);
    t.ok(subscriptions.every((s) => s.queue === queueOf(NS, worker)), `${worker}: one queue group`);
    for (const { subject } of subscriptions) {
      t.notOk(served.has(subject), `${subject} has one worker`);
      served.add(subject);
    }
  }
  t.ok([...served].every((s) => SUBJECT.test(s)), 'every subject reads <namespace>.<worker>.<resource>.<verb>');
  t.ok(served.has('crm.tokens.oauth.exchange-code') && served.has('crm.schema.stages.create') && served.has('crm.contacts.contacts.list'));
});

t.test('a subject part that is not lowercase kebab-case fails at definition', async (t) => {
  const shape = { worker: 'contacts' as const, input: z.object({}), output: z.object({}) };
  const malformed: [string, string][] = [['Contacts', 'list'], ['contacts', 'list_all'], ['contacts', 'sign.in'], ['', 'list'], ['contacts', 'list-'], ['contacts', '*']];
  for (const [resource, verb] of malformed) {
    t.throws(() => defineOperation({ ...shape, resource, verb }), /kebab-case/, `${resource}.${verb}`);
  }
  const op = defineOperation({ ...shape, resource: 'api-tokens', verb: 'sign-in' });
  t.equal(op.name, 'api-tokens.sign-in', 'name is <resource>.<verb>');
  t.equal(subjectOf(NS, op), 'crm.contacts.api-tokens.sign-in');
  t.throws(() => defineEvent({ worker: 'tokens', resource: 'oauth', event: 'GrantChanged' }), /kebab-case/);
});

t.test('broadcast events follow the same scheme', async (t) => {
  t.same([TOKEN_REVOKED_EVENT, GRANT_CHANGED_EVENT, SIGNING_KEYS_CHANGED_EVENT].map((e) => eventSubjectOf(NS, e)), [
    'crm.tokens.api-tokens.revoked',
    'crm.tokens.oauth.grant-changed',
    'crm.tokens.oauth.signing-keys-changed',
  ]);
});

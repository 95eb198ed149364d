import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import t from 'tap';
import type { Event } from '../../shared/contracts/events.js';
import { newId } from '../../shared/ids.js';
import { client } from '../helpers/http.js';
import { CrmProcess, runCrm } from '../helpers/process.js';
import { useStack } from '../helpers/shared-stack.js';

/**
 * `crm events tail` with NATS_URL reads the event stream and needs no database: with no
 * DATABASE_URL it must neither start an embedded Postgres (in CRM_DATA_DIR) nor look the
 * workspace up there, where the deployment's workspaces are not.
 */
const stack = await useStack(t);
const ws = await stack.bootstrap({ defaultCountry: 'US', workspace: `Tail ${newId('request').slice(-6)}` });
const api = client(stack.baseUrl, await stack.token(ws.workspace.id, ['contacts:write', 'events:read']));
// A data directory that must stay absent: it would hold the embedded database.
const dataDir = path.join(await mkdtemp(path.join(os.tmpdir(), 'crm-tail-')), 'data');
t.teardown(() => rm(path.dirname(dataDir), { recursive: true, force: true }));
const { DATABASE_URL: _database, CRM_SECRET: _secret, ...deployment } = stack.env;
const natsOnly: NodeJS.ProcessEnv = { ...deployment, CRM_DATA_DIR: dataDir };

t.test('with only NATS_URL, tail follows a workspace by id from the stream, opening no database', async (t) => {
  const created = await api.post<{ id: string }>('/v1/contacts', { first_name: 'Streamed', phone: '+1 415 555 2301' });
  t.equal(created.status, 201);
  const tail = new CrmProcess('events tail (NATS only)', ['events', 'tail', '--workspace', ws.workspace.id, '--type', 'contact.', '--since', '5m'], natsOnly);
  t.teardown(() => tail.stop());
  const [line = ''] = await tail.waitFor(new RegExp(`^.*${created.body.id}.*$`, 'm'), 30_000);
  const event = JSON.parse(line) as Event;
  t.equal(event.workspace_id, ws.workspace.id);
  t.equal(event.type, 'contact.created');
  t.notOk(existsSync(dataDir), 'no embedded database was started');
  t.equal(await tail.stop(), 0, 'stops cleanly when interrupted');
});

t.test('--type is read as the REST filter reads it, spaces around it left out', async (t) => {
  const created = await api.post<{ id: string }>('/v1/contacts', { first_name: 'Spaced', phone: '+1 415 555 2303' });
  t.equal(created.status, 201);
  const tail = new CrmProcess('events tail (spaced type)', ['events', 'tail', '--workspace', ws.workspace.id, '--type', ' contact.created ', '--since', '5m'], natsOnly);
  t.teardown(() => tail.stop());
  const [line = ''] = await tail.waitFor(new RegExp(`^.*${created.body.id}.*$`, 'm'), 30_000);
  t.equal((JSON.parse(line) as Event).type, 'contact.created');
  t.equal(await tail.stop(), 0, 'stops cleanly when interrupted');
});

t.test('a well-formed workspace id with no events yet is waited on, not refused', async (t) => {
  const tail = new CrmProcess('events tail (quiet workspace)', ['events', 'tail', '--workspace', newId('workspace')], natsOnly);
  t.teardown(() => tail.stop());
  await new Promise((resolve) => setTimeout(resolve, 5_000));
  t.ok(tail.running, 'still following');
  t.equal(tail.text(), '', 'nothing printed, no error');
  t.notOk(existsSync(dataDir), 'no embedded database was started');
  t.equal(await tail.stop(), 0);
});

t.test('in stream mode --workspace is checked as an id, and a name needs DATABASE_URL', async (t) => {
  const malformed = await runCrm(['events', 'tail', '--workspace', 'ws_01jd-lowercase'], natsOnly);
  t.equal(malformed.code, 2, 'a usage error');
  t.match(malformed.stderr, /^crm: --workspace ws_01jd-lowercase is not a workspace id/);

  const named = await runCrm(['events', 'tail', '--workspace', ws.workspace.name], natsOnly);
  t.equal(named.code, 2, 'a usage error');
  t.match(named.stderr, /^crm: --workspace takes the workspace id \(ws_…\) when the events come from NATS/);
  t.notOk(existsSync(dataDir), 'no embedded database was started');

  // With DATABASE_URL the name is looked up in the deployment's database, as before.
  const created = await api.post<{ id: string }>('/v1/contacts', { first_name: 'ByName', phone: '+1 415 555 2302' });
  const tail = new CrmProcess('events tail (by name)', ['events', 'tail', '--workspace', ws.workspace.name, '--type', 'contact.', '--since', '5m'], stack.env);
  t.teardown(() => tail.stop());
  await tail.waitFor(new RegExp(created.body.id), 30_000);
  t.pass('the event of the workspace named');
});

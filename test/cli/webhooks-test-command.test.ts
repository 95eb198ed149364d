import { randomBytes } from 'node:crypto';
import t from 'tap';
import { Webhook } from 'standardwebhooks';
import { runCrm } from '../helpers/process.js';
import { receiversClosedWith } from '../helpers/webhook-receiver.js';

/**
 * `crm webhooks test URL`: one signed test event, sent as the service sends deliveries, to a
 * receiver on 127.0.0.1 that checks it with the `standardwebhooks` library. The command needs
 * no database and no NATS; 127.0.0.1 is reached only with WEBHOOK_ALLOW_PRIVATE_NETWORKS=true.
 */
const allowed: NodeJS.ProcessEnv = { PATH: process.env.PATH, WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true', WEBHOOK_TIMEOUT: '5s' };
const crm = (args: string[], env = allowed) => runCrm(['webhooks', 'test', ...args], env);
// Each subtest has receivers of its own and each `crm` is a process: run them side by side.
t.jobs = 3;

const receiver = receiversClosedWith(t);

interface TestEvent {
  object: string;
  id: string;
  type: string;
  workspace_id: string | null;
  actor: { kind: string };
  data: { object: { url: string } };
}

/** What `--json` prints. */
interface Outcome {
  id: string;
  url: string;
  succeeded: boolean;
  status_code: number | null;
  error: string | null;
  secret?: string;
}

t.test('without --secret: signs with a new secret it prints, which verifies the one event sent; exit 0', async (t) => {
  const r = await receiver();
  const res = await crm([r.url]);
  t.equal(res.code, 0, res.stderr);
  const printed = res.stdout.match(/^Delivered (msg_\S+) to (\S+): HTTP 200 in \d+ ms\.\nSigned with the new secret (whsec_\S+)\n$/);
  t.ok(printed, `what it printed: ${res.stdout}`);
  const [, id, url, secret] = printed ?? [];
  t.equal(url, r.url);
  t.equal(r.received.length, 1, 'one request');
  const [got] = r.received;
  if (!got || !secret) return;
  t.equal(got.id, id, 'webhook-id is the id it printed');
  t.doesNotThrow(() => new Webhook(secret).verify(got.body, got.headers as Record<string, string>), 'the printed secret verifies it (standardwebhooks)');
  t.throws(() => new Webhook(`whsec_${randomBytes(32).toString('base64')}`).verify(got.body, got.headers as Record<string, string>), 'another secret does not');
  t.match(JSON.parse(got.body) as TestEvent, { object: 'event', id: /^evt_/, type: 'webhook_endpoint.test', workspace_id: null, actor: { kind: 'cli' }, data: { object: { url: r.url } } });
  t.equal(got.headers['content-type'], 'application/json');
});

t.test('--secret: signs with the given secret and does not echo it; --json', async (t) => {
  const r = await receiver();
  r.secret = `whsec_${randomBytes(32).toString('base64')}`;
  const res = await crm([r.url, '--secret', r.secret, '--json']);
  t.equal(res.code, 0, res.stderr);
  const outcome = JSON.parse(res.stdout) as Outcome;
  t.match(outcome, { id: /^msg_/, url: r.url, succeeded: true, status_code: 200, error: null });
  t.notOk('secret' in outcome, 'no secret in the output');
  t.notOk(res.stdout.includes(r.secret.slice('whsec_'.length)) || res.stderr.includes(r.secret.slice('whsec_'.length)), 'the given secret is printed nowhere');
  t.equal(r.received.length, 1);
  t.ok(r.received[0]?.verified, 'the receiver verifies it with the secret given');
  t.equal(r.received[0]?.id, outcome.id);

  const bad = await crm([r.url, '--secret', 'not-a-secret']);
  t.equal(bad.code, 2, 'a secret that is not whsec_… is a usage error');
  t.match(bad.stderr, /--secret must be a whsec_… secret/);
  t.equal(r.received.length, 1, 'and nothing is sent');
});

t.test(`the secret from CRM_WEBHOOK_SECRET or --secret-stdin, out of shell history and ps; --secret warns`, async (t) => {
  const r = await receiver();
  r.secret = `whsec_${randomBytes(32).toString('base64')}`;
  const key = r.secret.slice('whsec_'.length);

  const fromEnv = await crm([r.url, '--json'], { ...allowed, CRM_WEBHOOK_SECRET: r.secret });
  t.equal(fromEnv.code, 0, fromEnv.stderr);
  t.equal(fromEnv.stderr, '', 'no warning');
  t.notOk('secret' in (JSON.parse(fromEnv.stdout) as Outcome), 'not echoed');
  t.ok(r.received[0]?.verified, 'CRM_WEBHOOK_SECRET signs it');

  const fromStdin = await runCrm(['webhooks', 'test', r.url, '--secret-stdin', '--json'], allowed, `${r.secret}\n`);
  t.equal(fromStdin.code, 0, fromStdin.stderr);
  t.equal(fromStdin.stderr, '', 'no warning');
  t.ok(r.received[1]?.verified, 'the first line of standard input signs it');

  const fromOption = await crm([r.url, '--secret', r.secret, '--json']);
  t.equal(fromOption.code, 0, fromOption.stderr);
  t.match(fromOption.stderr, /--secret puts the secret in shell history and the process list; give it in CRM_WEBHOOK_SECRET or with --secret-stdin/, '--secret still signs, with a warning');
  t.notOk(fromOption.stderr.includes(key), 'which does not repeat the secret');
  t.ok(r.received[2]?.verified);

  const badEnv = await crm([r.url], { ...allowed, CRM_WEBHOOK_SECRET: 'not-a-secret' });
  t.equal(badEnv.code, 2);
  t.match(badEnv.stderr, /CRM_WEBHOOK_SECRET must be a whsec_… secret/);
  const both = await runCrm(['webhooks', 'test', r.url, '--secret-stdin', '--secret', r.secret], allowed, `${r.secret}\n`);
  t.equal(both.code, 2);
  t.match(both.stderr, /Give --secret or --secret-stdin, not both/);
  const empty = await runCrm(['webhooks', 'test', r.url, '--secret-stdin'], allowed, '');
  t.equal(empty.code, 2);
  t.match(empty.stderr, /--secret-stdin read no secret/);
  t.equal(r.received.length, 3, 'nothing sent on a refusal');
  const help = await crm(['--help']);
  t.match(help.stdout + help.stderr, /CRM_WEBHOOK_SECRET/, 'the usage names the variable');
});

t.test('a receiver answering 500: exit 1, saying what it answered; sent once, not retried', async (t) => {
  const r = await receiver(() => 500);
  const res = await crm([r.url]);
  t.equal(res.code, 1);
  t.match(res.stdout, new RegExp(`^Not delivered to ${r.url.replace(/[.]/g, '\\.')}: HTTP 500 \\(\\d+ ms\\)\\.\\n`));
  t.equal(r.received.length, 1, 'one attempt');

  const json = await crm([r.url, '--json']);
  t.equal(json.code, 1);
  t.match(JSON.parse(json.stdout) as Outcome, { succeeded: false, status_code: 500, error: 'HTTP 500', secret: /^whsec_/ });
  t.equal(r.received.length, 2);
});

t.test('loopback is refused without WEBHOOK_ALLOW_PRIVATE_NETWORKS=true, before any connection: a usage error (exit 2)', async (t) => {
  // Before, exit 1 (as for a receiver that failed) and the message ended with the API's field name, "(URL)".
  const r = await receiver();
  const port = new URL(r.url).port;
  const cases: [string, RegExp][] = [
    [r.url, /^crm: The URL must be an https URL\.\n\nUsage: crm webhooks test URL/],
    [`https://127.0.0.1:${port}/hook`, /^crm: The URL is refused: 127\.0\.0\.1 is not a public address: loopback\.\n\nUsage: crm webhooks test URL/],
    [`https://localhost:${port}/hook`, /^crm: The URL is refused: localhost is not a public address: loopback \(a localhost name, RFC 6761\)\.\n\nUsage: crm webhooks test URL/],
  ];
  for (const env of [{ PATH: process.env.PATH }, { PATH: process.env.PATH, WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'false' }]) {
    for (const [url, message] of cases) {
      const res = await crm([url], env);
      t.equal(res.code, 2, `${url} (WEBHOOK_ALLOW_PRIVATE_NETWORKS=${env.WEBHOOK_ALLOW_PRIVATE_NETWORKS ?? 'unset'})`);
      t.match(res.stderr, message);
      t.equal(res.stdout, '');
    }
  }
  t.equal(r.connections, 0, 'no connection reached the receiver');
  t.equal(r.received.length, 0);
});

t.test('a --secret that is whsec_ but not base64 is a usage error, not a crash', async (t) => {
  // Before, 'whsec_AAAA=AAAA=AAAA=AAAA' passed the check of the option, then the signing library
  // threw on it: "crm: Error: Base64Coder: incorrect characters for decoding" and a stack trace, exit 1.
  const r = await receiver();
  for (const secret of ['whsec_AAAA=AAAA=AAAA=AAAA', 'whsec_AAAAAAAAAAAAAAAAAAAAAAAAA', `whsec_${'A'.repeat(20)}==`]) {
    const res = await crm([r.url, '--secret', secret]);
    t.equal(res.code, 2, `${secret}: a usage error`);
    t.match(res.stderr, /--secret must be a whsec_… secret/, secret);
    t.notMatch(res.stderr, /Base64Coder|\n\s+at /, `${secret}: no stack trace`);
  }
  t.equal(r.received.length, 0, 'nothing is sent');
});

t.test('a URL whose port cannot exist is refused naming the port, as the REST API refuses it', async (t) => {
  // Before, `crm webhooks test http://127.0.0.1:70000/` said "The URL must be an absolute https URL",
  // which it is; POST /v1/webhook-endpoints names the port for the same URL.
  for (const url of ['http://127.0.0.1:70000/hook', 'https://[::1]:99999/hook']) {
    const res = await crm([url]);
    t.equal(res.code, 2, url);
    t.match(res.stderr, /^crm: The URL must name a port from 1 to 65535, or none \(443 for https\)\.\n\nUsage: crm webhooks test URL/, url);
    t.equal(res.stdout, '');
  }
});

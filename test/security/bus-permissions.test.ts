import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { connect, headers as natsHeaders, nkeyAuthenticator, type ConnectionOptions, type NatsConnection } from 'nats';
import t from 'tap';
import { encode } from '../../shared/bus/codec.js';
import { decodeReply } from '../../shared/bus/reply.js';
import { HEADER } from '../../shared/bus/headers.js';
import { inboxPrefixOf, workerRole, type NatsRole } from '../../shared/bus/nats-permissions.js';
import { signOperatorCall } from '../../shared/bus/operator-signature.js';
import { queueOf, subjectOf } from '../../shared/bus/operation.js';
import type { CallContext } from '../../shared/contracts/call-context.js';
import { createContact, getContact, listContacts } from '../../shared/contracts/contacts.js';
import { healthOf } from '../../shared/contracts/health.js';
import { addUser, bootstrapWorkspace } from '../../shared/contracts/identity.js';
import { signIn } from '../../shared/contracts/sessions.js';
import { createToken } from '../../shared/contracts/tokens.js';
import { deriveSecrets } from '../../shared/secrets.js';
import { busAs } from '../helpers/bus-as.js';
import { busUnderAttack } from '../helpers/bus-under-attack.js';
import { startPrivateNats, type PrivateNats } from '../helpers/private-services.js';
import { CrmProcess, runCrm } from '../helpers/process.js';
import { prepareEnvironment, TEST_PASSWORD } from '../helpers/stack.js';
import { makeTestCertificates } from '../helpers/test-certificates.js';

/**
 * The bus as an attacker on the network sees it. NATS runs with the authorization block
 * the service ships (`crm nats config`, keys made for this test); a tokens worker serves
 * on it. Before, NATS had no users: anyone who reached it could read sign-in passwords
 * from the tokens worker's subjects, join its queue group to answer `authenticate`, and
 * call any worker as the all-powerful `operator`.
 */
const { nats, env } = await busUnderAttack(t);

const { plan } = nats;
const ns = plan.namespace;
const signInSubject = subjectOf(ns, signIn);

async function connectAs(who: NatsRole | 'test-admin' | 'nobody', extra: Partial<ConnectionOptions> = {}, server: PrivateNats = nats): Promise<NatsConnection> {
  const seed = who === 'nobody' ? undefined : who === 'test-admin' ? server.plan.admin.seed : server.plan.keys[who].seed;
  const nc = await connect({
    servers: server.url,
    reconnect: false,
    ...(seed ? { authenticator: nkeyAuthenticator(new TextEncoder().encode(seed)) } : {}),
    ...(who === 'gateway' || who === 'cli' ? { inboxPrefix: inboxPrefixOf(server.plan.namespace, who) } : {}),
    ...extra,
  });
  t.teardown(() => nc.close());
  return nc;
}

/** Subscribes and reports whether the server refused (a permissions violation) or let a message through. */
async function trySubscribe(nc: NatsConnection, subject: string, queue?: string): Promise<'refused' | 'received' | 'nothing'> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve('nothing'), 1500);
    nc.subscribe(subject, {
      queue,
      callback: (err) => {
        clearTimeout(timer);
        resolve(err ? 'refused' : 'received');
      },
    });
    // A sign-in on the bus, as a gateway sends one: the message the attacker wants to see.
    void connectAs('gateway').then((gw) => gw.request(signInSubject, encode({ context: null, input: { email: 'ada@example.test', password: 'a secret', ip: '203.0.113.1' } }), { timeout: 1000 }).catch(() => undefined));
  });
}

t.test('no identity, no connection', async (t) => {
  await t.rejects(connectAs('nobody'), /Authorization/i, 'an anonymous client is turned away');
  const { NATS_NKEY_SEED: _seed, ...withoutIdentity } = env.envFor(workerRole('tokens'));
  const run = await runCrm(['worker', 'tokens'], withoutIdentity);
  t.not(run.code, 0, 'a worker without its key exits instead of waiting forever');
  t.match(run.stderr, /refused this process/, 'and says why');
  t.equal(run.stderr.trim().split('\n').length, 1, `in one line, not a stack trace: ${run.stderr}`);
  t.equal(run.code, 1);
});

t.test('what an open bus gave away, an unrestricted identity still sees (the attack)', async (t) => {
  // test-admin stands for NATS without users, as compose and Kubernetes ran it before.
  const admin = await connectAs('test-admin');
  t.equal(await trySubscribe(admin, `${ns}.>`), 'received', 'a listener on <ns>.> reads sign-in requests, passwords included');
});

t.test("a gateway's identity cannot read or answer worker requests", async (t) => {
  const gw = await connectAs('gateway');
  t.equal(await trySubscribe(gw, `${ns}.>`), 'refused', 'not <ns>.>');
  t.equal(await trySubscribe(await connectAs('gateway'), signInSubject), 'refused', 'not a worker subject');
  t.equal(await trySubscribe(await connectAs('gateway'), signInSubject, queueOf(ns, 'tokens')), 'refused', "not the tokens worker's queue group");
  t.equal(await trySubscribe(await connectAs('gateway'), '_INBOX.>'), 'refused', "not other processes' reply inboxes");
  t.equal(await trySubscribe(await connectAs('gateway'), `${inboxPrefixOf(ns, 'cli')}.>`), 'refused', "not the command line's replies");
});

t.test('a worker reads only its own kind, only in its queue group', async (t) => {
  t.equal(await trySubscribe(await connectAs('worker-contacts'), signInSubject, queueOf(ns, 'tokens')), 'refused', "contacts cannot take the tokens worker's requests");
  t.equal(await trySubscribe(await connectAs('worker-tokens'), signInSubject), 'refused', 'not as a listener beside its queue group');
  t.equal(await trySubscribe(await connectAs('worker-tokens'), `${ns}.>`, queueOf(ns, 'tokens')), 'refused', 'not beyond its subjects');
  // And a worker cannot send requests of its own.
  const contacts = await connectAs('worker-contacts');
  const outcome = await contacts.request(signInSubject, encode({ context: null, input: {} }), { timeout: 1000 }).then(
    () => 'answered',
    (error: Error) => error.message,
  );
  t.match(outcome, /permission|timeout|TIMEOUT/i, 'its request goes nowhere');
});

t.test('a gateway still does its job: requests out, replies back', async (t) => {
  const bus = await busAs(t, env, 'gateway');
  t.same((await bus.call(healthOf('tokens'), {}, { context: null, requestId: 'req_bus_test' })).result, { worker: 'tokens', database: 'ok' });
});

t.test('operator calls: only the command line, signed, can make them', async (t) => {
  const ws = await env.crm(['bootstrap', '--org', 'Bus Org', '--workspace', 'Bus WS', '--email', 'admin@bus.test', '--password', TEST_PASSWORD, '--json']);
  const workspaceId = (JSON.parse(ws.stdout) as { workspace: { id: string } }).workspace.id;
  const operator: CallContext = { workspace_id: workspaceId, principal: { type: 'operator', scopes: ['tokens:write'] }, visibility: 'all' };
  const subject = subjectOf(ns, createToken);
  const key = deriveSecrets(env.env.CRM_SECRET ?? '').operatorCallKey;
  const gw = await connectAs('gateway');

  const send = async (input: unknown, sign?: { key?: Buffer; deadline?: number; signedInput?: unknown }) => {
    const deadline = sign?.deadline ?? Date.now() + 5000;
    const data = encode({ context: operator, input });
    const h = natsHeaders();
    h.set(HEADER.requestId, 'req_forged');
    h.set(HEADER.deadline, String(deadline));
    if (sign) {
      const signedData = sign.signedInput === undefined ? data : encode({ context: operator, input: sign.signedInput });
      h.set(HEADER.operatorSignature, signOperatorCall(sign.key ?? key, subject, deadline, signedData));
    }
    return decodeReply(((await gw.request(subject, data, { timeout: 5000, headers: h })) as { data: Uint8Array }).data);
  };
  const want = { name: 'backdoor', scopes: ['contacts:write' as const] };
  const code = (reply: ReturnType<typeof decodeReply>) => (reply === undefined ? 'not a reply' : reply.ok ? 'created' : reply.error.code);

  t.equal(code(await send(want)), 'forbidden', 'unsigned: refused (before, this minted a token in any workspace)');
  t.equal(code(await send(want, { key: Buffer.alloc(32, 7) })), 'forbidden', 'signed with another key: refused');
  t.equal(code(await send(want, { deadline: Date.now() + 10 * 60_000 })), 'forbidden', 'a deadline far ahead (a long-lived signature): refused');
  t.equal(code(await send(want, { signedInput: { name: 'harmless', scopes: ['contacts:read'] } })), 'forbidden', 'a signature for other input: refused');
  t.equal(code(await send(want, { deadline: Date.now() - 1 })), 'unavailable', 'a stale call is dropped as expired');
  t.equal(code(await send(want, {})), 'created', 'signed with the key derived from CRM_SECRET: done');
  // Gateways validate a client's input and forward it; the worker, where the bus is trusted, checks it again.
  t.equal(code(await send({ name: 42, scopes: 'everything' }, {})), 'validation_failed', 'malformed input, even from a signed caller: refused by the worker');
  const garbage = await gw.request(subject, new TextEncoder().encode('{"context": nul'), { timeout: 5000 });
  t.equal(code(decodeReply(garbage.data)), 'internal', 'bytes that are no request envelope: refused');

  const gatewayClient = await busAs(t, env, 'gateway');
  await t.rejects(gatewayClient.call(createToken, want, { context: operator, requestId: 'req_gw' }), /Only the command line/, 'a bus client without the key never sends the operator principal');
  // Command-line operations without a workspace (bootstrap, key rotation) are signed too.
  const bootstrap = { organization: 'Forged Org', workspace: 'Forged WS', email: 'forged@bus.test', password: TEST_PASSWORD, default_country: null };
  const forged = decodeReply((await gw.request(subjectOf(ns, bootstrapWorkspace), encode({ context: null, input: bootstrap }), { timeout: 5000 })).data);
  t.equal(code(forged), 'forbidden', 'an unsigned bootstrap is refused (before, it created an organization and its administrator)');
  t.same(await env.db.query("select id from users where email = 'forged@bus.test'"), [], 'no user was created');
  const stored = await env.db.query<{ name: string }>('select name from api_tokens where workspace_id = $1 order by name', [workspaceId]);
  t.same(stored.map((r) => r.name), ['backdoor'], 'one token, from the one signed call');
});

t.test('crm users add: only the signed command line, not a gateway acting for an administrator', async (t) => {
  const ws = await env.crm(['bootstrap', '--org', 'Oracle Bus Org', '--workspace', 'Oracle Bus WS', '--email', 'admin@oracle-bus.test', '--password', TEST_PASSWORD, '--json']);
  const { workspace, user } = JSON.parse(ws.stdout) as { workspace: { id: string }; user: { id: string } };
  const administrator: CallContext = { workspace_id: workspace.id, principal: { type: 'user', id: user.id, scopes: ['tokens:write'] }, visibility: 'all' };
  const gw = await connectAs('gateway');
  const send = async (input: unknown) => {
    const h = natsHeaders();
    h.set(HEADER.requestId, 'req_forged_users_add');
    h.set(HEADER.deadline, String(Date.now() + 5000));
    const reply = decodeReply((await gw.request(subjectOf(ns, addUser), encode({ context: administrator, input }), { timeout: 5000, headers: h })).data);
    return reply === undefined ? 'not a reply' : reply.ok ? 'done' : reply.error.code;
  };
  // Before, a wrong password answered "not theirs" (a conflict) and the right one succeeded:
  // an unthrottled password oracle for any address, outside sign-in's per-address limit.
  const guess = { email: 'admin@oracle-bus.test', password: 'not the password at all', permissions: ['configuration'], visibility: 'all' };
  t.equal(await send(guess), 'forbidden', 'a wrong password: refused as unsigned, saying nothing about the password');
  t.equal(await send({ ...guess, password: TEST_PASSWORD }), 'forbidden', 'the right password: refused the same way');
  t.equal(await send({ ...guess, email: 'new-member@oracle-bus.test' }), 'forbidden', 'a new user: refused, nothing created');
  t.same(await env.db.query("select id from users where email = 'new-member@oracle-bus.test'"), [], 'no user was created');
});

t.test('valid JSON in a malformed envelope: the contacts worker answers an error and does nothing', async (t) => {
  const contactsWorker = new CrmProcess('worker contacts', ['worker', 'contacts'], env.envFor(workerRole('contacts')));
  t.teardown(() => contactsWorker.stop());
  await contactsWorker.waitFor(/"msg":"worker ready"/);
  const ws = await env.crm(['bootstrap', '--org', 'Envelope Org', '--workspace', 'Envelope WS', '--email', 'admin@envelope.test', '--password', TEST_PASSWORD, '--json']);
  const workspaceId = (JSON.parse(ws.stdout) as { workspace: { id: string } }).workspace.id;
  const context: CallContext = { workspace_id: workspaceId, principal: { type: 'token', id: 'tok_envelope', scopes: ['contacts:read', 'contacts:write'] }, visibility: 'all' };
  const gw = await connectAs('gateway');

  // Sent as a gateway sends a request, but with any envelope at all.
  const send = async (op: typeof createContact | typeof listContacts | typeof getContact, envelope: unknown) => {
    const h = natsHeaders();
    h.set(HEADER.requestId, 'req_envelope');
    h.set(HEADER.deadline, String(Date.now() + 5000));
    const reply = await gw.request(subjectOf(ns, op), encode(envelope), { timeout: 5000, headers: h });
    return { reply: decodeReply(reply.data), text: new TextDecoder().decode(reply.data) };
  };
  const code = (reply: ReturnType<typeof decodeReply>) => (reply === undefined ? 'not a reply' : reply.ok ? 'done' : reply.error.code);
  // Refused for its envelope, before any work: not a failure of the work (a database error is `internal` too).
  const refusal = (reply: ReturnType<typeof decodeReply>) => (reply === undefined || reply.ok ? code(reply) : `${reply.error.code}: ${reply.error.message}`);
  const MALFORMED = /^internal: Malformed request envelope on /;

  // The same requests well formed, so that what follows fails for its envelope alone.
  const created = await send(createContact, { context, input: { first_name: 'Ada', phone: '+14155550100' } });
  t.equal(code(created.reply), 'done', 'a well-formed create is served');
  const contactId = created.reply?.ok ? (created.reply.result as { id: string }).id : 'none';
  t.match(contactId, /^con_/);
  t.match((await send(listContacts, { context, input: { limit: 10 } })).text, contactId, 'a well-formed list returns the contact');
  t.match((await send(getContact, { context, input: { id: contactId } })).text, contactId, 'a well-formed get returns it');

  const { workspace_id: _workspace, ...withoutWorkspace } = context;
  const scopesNotAList = { ...context, principal: { ...context.principal, scopes: 'contacts:write' } };
  const malformed: [string, Record<string, unknown>][] = [
    ['a context without workspace_id', withoutWorkspace],
    ['principal.scopes that is not a list', scopesNotAList],
    ['a principal of no known type', { ...context, principal: { type: 'root', id: 'x', scopes: ['contacts:write'] } }],
    ['visibility that is no visibility', { ...context, visibility: 'everything' }],
  ];
  for (const [what, badContext] of malformed) {
    const create = await send(createContact, { context: badContext, input: { first_name: 'Forged', phone: '+14155550199' } });
    t.match(refusal(create.reply), MALFORMED, `create with ${what}: an internal error (a malformed envelope)`);
    const list = await send(listContacts, { context: badContext, input: { limit: 10 } });
    t.match(refusal(list.reply), MALFORMED, `list with ${what}: an internal error`);
    t.notMatch(list.text, contactId, 'and no contact in the reply');
    const get = await send(getContact, { context: badContext, input: { id: contactId } });
    t.match(refusal(get.reply), MALFORMED, `get with ${what}: an internal error`);
    t.notMatch(get.text, contactId, 'and no contact in the reply');
  }
  const nullContext = await send(createContact, { context: null, input: { first_name: 'Forged', phone: '+14155550199' } });
  t.match(refusal(nullContext.reply), /^internal: .* needs a workspace context/, 'a create with context null: refused');
  t.match(refusal((await send(listContacts, { input: { limit: 10 } })).reply), MALFORMED, 'a list with no context member at all: refused');
  // `input` may be any JSON, but it must be there (even null): an envelope without it is malformed.
  t.match(refusal((await send(createContact, { context })).reply), MALFORMED, 'a create without input: refused');
  const noInputList = await send(listContacts, { context });
  t.match(refusal(noInputList.reply), MALFORMED, 'a list without input: refused');
  t.notMatch(noInputList.text, contactId, 'with no contact in the reply');
  t.equal(code((await send(listContacts, { context, input: null })).reply), 'validation_failed', 'input null is an envelope, refused by the input check');

  const stored = await env.db.query<{ id: string; first_name: string }>('select id, first_name from contacts');
  t.same(stored, [{ id: contactId, first_name: 'Ada' }], 'only the well-formed create wrote a contact');
  t.notMatch(await contactsWorker.settledText(), /"msg":"unexpected error"/, 'each was refused, not failed on');
});

t.test('TLS: clients verify the server, and nothing crosses in clear', async (t) => {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'crm-tls-'));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  const certs = makeTestCertificates(dir);
  const tlsNats = await startPrivateNats({ tls: { cert: certs.cert, key: certs.key } });
  t.teardown(() => tlsNats.stop());
  await t.rejects(connectAs('gateway', {}, tlsNats), 'a client without TLS is refused');
  const tlsEnv = await prepareEnvironment({ NATS_TLS_CA: certs.ca }, { nats: tlsNats });
  const tlsWorker = new CrmProcess('worker tokens (tls)', ['worker', 'tokens'], tlsEnv.envFor(workerRole('tokens')));
  t.teardown(async () => {
    await tlsWorker.stop();
    await tlsEnv.stop();
  });
  await tlsWorker.waitFor(/"msg":"worker ready"/);
  const gw = await connectAs('gateway', { tls: { caFile: certs.ca } }, tlsNats);
  const reply = decodeReply((await gw.request(subjectOf(tlsNats.plan.namespace, healthOf('tokens')), encode({ context: null, input: {} }), { timeout: 5000 })).data);
  t.same(reply, { ok: true, result: { worker: 'tokens', database: 'ok' } }, 'a worker with NATS_TLS_CA answers over TLS');
});

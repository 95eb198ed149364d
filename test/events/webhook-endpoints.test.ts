import t from 'tap';
import type { CallContext } from '../../shared/contracts/call-context.js';
import { createWebhookEndpoint, MAX_WEBHOOK_ENDPOINTS } from '../../shared/contracts/webhooks.js';
import { busAs } from '../helpers/bus-as.js';
import { whileHeld } from '../helpers/held-lock.js';
import { client } from '../helpers/http.js';
import { useStack } from '../helpers/shared-stack.js';

/**
 * Webhook endpoints over REST with the service's default settings (private networks
 * refused): create, list, retrieve, update, delete, rotate, each recording its event;
 * refused input is a 400 that changes nothing; the SSRF cases refused at creation and
 * update; test events and retries to an address that does not resolve are failed attempts
 * naming the reason. Deliveries to receivers are in webhook-delivery.test.ts.
 */
const stack = await useStack(t);
const ws = await stack.bootstrap();
// Every read scope an endpoint for `*` needs (an endpoint receives only what its creator may read).
const api = client(stack.baseUrl, await stack.token(ws.workspace.id, ['webhooks:write', 'events:read', 'contacts:read', 'deals:read', 'schema:read', 'tokens:write']));

interface Endpoint {
  id: string;
  url: string;
  description: string | null;
  enabled_events: string[];
  status: string;
  secret?: string;
  secret_rotated_at: string | null;
}
interface Delivery {
  id: string;
  status: string;
  event_type: string;
  attempt_count: number;
  attempts: { succeeded: boolean; status_code: number | null; error: string | null; latency_ms: number }[];
}
interface EventBody {
  type: string;
  actor: { kind: string };
  data: { object: Record<string, unknown>; previous_attributes: Record<string, unknown> | null };
}

const eventsOf = async (id: string) => (await api.get<{ data: EventBody[] }>(`/v1/events?object_id=${id}`)).body.data;
const listIds = async () => (await api.get<{ data: Endpoint[] }>('/v1/webhook-endpoints?limit=100')).body.data.map((e) => e.id);

// A workspace has at most MAX_WEBHOOK_ENDPOINTS endpoints: each test starts with none of the ones before it left.
t.afterEach(async () => {
  await stack.db.query('delete from webhook_endpoints where workspace_id = $1', [ws.workspace.id]);
});

// Public-looking names that do not resolve: accepted at creation, refused (without a socket) at delivery.
const URL_A = 'https://hooks.unresolvable.invalid/crm';

t.test('create, list, retrieve, update, rotate, delete: the secret only at create and rotate, one event each', async (t) => {
  const created = await api.post<Endpoint>('/v1/webhook-endpoints', { url: URL_A, enabled_events: ['contact.created', 'deal.stage_changed', 'contact.created'], description: 'Orders' });
  t.equal(created.status, 201);
  t.equal(created.headers.get('cache-control'), 'no-store');
  const endpoint = created.body;
  t.match(endpoint.id, /^we_/);
  t.match(endpoint.secret, /^whsec_[A-Za-z0-9+/]+=*$/);
  t.same(endpoint.enabled_events, ['contact.created', 'deal.stage_changed'], 'duplicates dropped');
  t.equal(endpoint.status, 'enabled');

  const stored = await stack.db.query<{ secret_encrypted: string }>('select secret_encrypted from webhook_endpoints where id = $1', [endpoint.id]);
  t.notOk(stored[0]?.secret_encrypted.includes(endpoint.secret?.slice(6) ?? '-'), 'the database holds the secret encrypted');

  const got = await api.get<Endpoint>(`/v1/webhook-endpoints/${endpoint.id}`);
  t.equal(got.status, 200);
  t.notOk('secret' in got.body, 'never shown again');
  t.ok((await listIds()).includes(endpoint.id));

  const updated = await api.send<Endpoint>('PATCH', `/v1/webhook-endpoints/${endpoint.id}`, { body: { enabled_events: ['*'], description: null, status: 'disabled' } });
  t.equal(updated.status, 200);
  t.match(updated.body, { enabled_events: ['*'], description: null, status: 'disabled' });

  const rotated = await api.post<Endpoint>(`/v1/webhook-endpoints/${endpoint.id}/rotate-secret`, {});
  t.equal(rotated.status, 200);
  t.match(rotated.body.secret, /^whsec_/);
  t.not(rotated.body.secret, endpoint.secret);
  t.not(rotated.body.secret_rotated_at, null);

  const deleted = await api.send('DELETE', `/v1/webhook-endpoints/${endpoint.id}`);
  t.same(deleted.body, { object: 'webhook_endpoint', id: endpoint.id, deleted: true });
  t.equal((await api.get(`/v1/webhook-endpoints/${endpoint.id}`)).status, 404);
  t.notOk((await listIds()).includes(endpoint.id));

  const events = await eventsOf(endpoint.id);
  t.same(events.map((e) => e.type), ['webhook_endpoint.deleted', 'webhook_endpoint.updated', 'webhook_endpoint.updated', 'webhook_endpoint.created']);
  const [, rotation, update] = events as [EventBody, EventBody, EventBody];
  t.same(update.data.previous_attributes, { enabled_events: ['contact.created', 'deal.stage_changed'], description: 'Orders', status: 'enabled' });
  t.same(Object.keys(rotation.data.previous_attributes ?? {}), ['secret_rotated_at'], 'rotation says when, not what');
  t.notOk(JSON.stringify(events).includes('whsec_'), 'no event carries a secret');
});

t.test('SSRF: loopback, private, link-local (metadata), IPv6 loopback, names resolving to loopback, and http are a clear 400 that stores nothing', async (t) => {
  const before = await listIds();
  const cases: [string, RegExp][] = [
    ['https://127.0.0.1/hook', /127\.0\.0\.1 is not a public address: loopback/],
    ['https://10.0.0.1/hook', /10\.0\.0\.1 is not a public address: private/],
    ['https://169.254.169.254/latest/meta-data/', /169\.254\.169\.254 is not a public address: link-local/],
    ['https://[::1]:8443/hook', /::1 is not a public address: loopback/],
    ['https://localhost/hook', /localhost is not a public address: loopback/],
    ['https://[::ffff:127.0.0.1]/hook', /loopback/],
    ['http://hooks.example.com/crm', /must be an https URL/],
    ['ftp://hooks.example.com/crm', /https URL/],
  ];
  for (const [url, message] of cases) {
    const res = await api.post<{ error: { code: string; param: string; message: string } }>('/v1/webhook-endpoints', { url, enabled_events: ['*'] });
    t.equal(res.status, 400, url);
    t.match(res.body.error, { code: 'validation_failed', param: 'url', message }, url);
  }
  const ok = await api.post<Endpoint>('/v1/webhook-endpoints', { url: URL_A, enabled_events: ['*'] });
  const patch = await api.send<{ error: { param: string; message: string } }>('PATCH', `/v1/webhook-endpoints/${ok.body.id}`, { body: { url: 'https://169.254.169.254/' } });
  t.equal(patch.status, 400);
  t.match(patch.body.error, { param: 'url', message: /link-local/ });
  t.equal((await api.get<Endpoint>(`/v1/webhook-endpoints/${ok.body.id}`)).body.url, URL_A, 'the refused update changed nothing');
  t.same((await listIds()).filter((id) => !before.includes(id)), [ok.body.id], 'only the valid endpoint was stored');
  t.equal((await eventsOf(ok.body.id)).length, 1, 'refused writes record no event');
});

t.test('a new url starts a new failing spell; other changes keep it', async (t) => {
  // Before, the old address's days of failures stayed on the endpoint: the new address's first
  // failure disabled it at once.
  const endpoint = (await api.post<Endpoint>('/v1/webhook-endpoints', { url: URL_A, enabled_events: ['*'], status: 'disabled' })).body;
  const failingSince = async () => (await api.get<{ failing_since: string | null }>(`/v1/webhook-endpoints/${endpoint.id}`)).body.failing_since;
  await stack.db.query("update webhook_endpoints set failing_since = now() - interval '2 days' where id = $1", [endpoint.id]);
  t.equal((await api.send('PATCH', `/v1/webhook-endpoints/${endpoint.id}`, { body: { description: 'Renamed', url: URL_A } })).status, 200);
  t.not(await failingSince(), null, 'the same url and a description: still failing');
  t.equal((await api.send('PATCH', `/v1/webhook-endpoints/${endpoint.id}`, { body: { url: 'https://fixed.unresolvable.invalid/crm' } })).status, 200);
  t.equal(await failingSince(), null, 'another url: its failures are forgotten');
});

t.test('an update that repeats the values changes nothing: the same updated_at and no event, as for contacts, deals and notes', async (t) => {
  // Before, updated_at moved with every PATCH while no event said why.
  const endpoint = (await api.post<Endpoint & { updated_at: string }>('/v1/webhook-endpoints', { url: URL_A, enabled_events: ['contact.created', 'deal.created'], description: 'Same' }))
    .body;
  const same = await api.send<Endpoint & { updated_at: string }>('PATCH', `/v1/webhook-endpoints/${endpoint.id}`, {
    body: { url: URL_A, enabled_events: ['deal.created', 'contact.created'], description: 'Same', status: 'enabled' },
  });
  t.equal(same.status, 200);
  t.equal(same.body.updated_at, endpoint.updated_at, 'updated_at stays');
  t.equal((await api.get<{ updated_at: string }>(`/v1/webhook-endpoints/${endpoint.id}`)).body.updated_at, endpoint.updated_at, 'nothing was written');
  t.same((await eventsOf(endpoint.id)).map((e) => e.type), ['webhook_endpoint.created'], 'no webhook_endpoint.updated');
  t.same(same.body.enabled_events, ['contact.created', 'deal.created'], 'the same types in another order are the same set, kept as stored');

  const renamed = await api.send<Endpoint & { updated_at: string }>('PATCH', `/v1/webhook-endpoints/${endpoint.id}`, { body: { url: URL_A, description: 'Renamed' } });
  t.not(renamed.body.updated_at, endpoint.updated_at, 'a real change still moves updated_at');
  const events = await eventsOf(endpoint.id);
  t.same(events.map((e) => e.type), ['webhook_endpoint.updated', 'webhook_endpoint.created']);
  t.same(events[0]?.data.previous_attributes, { description: 'Same' }, 'and records exactly what changed');
});

t.test('the url is kept as the URL parser reads it: what an endpoint shows is where its deliveries go', async (t) => {
  // Before, the text was kept as given: `https:///x` or `https://x\@y/` showed one address
  // while deliveries went to another (`https://x/…`), and a name in Unicode was not the one resolved.
  for (const [given, kept] of [
    ['https:///plain.unresolvable.invalid/hook', 'https://plain.unresolvable.invalid/hook'],
    ['https://slash.unresolvable.invalid\\@127.0.0.1/', 'https://slash.unresolvable.invalid/@127.0.0.1/'],
    ['https://EXÄMPLE.unresolvable.invalid', 'https://xn--exmple-cua.unresolvable.invalid/'],
    ['HTTPS://case.unresolvable.invalid:443/a/../hook', 'https://case.unresolvable.invalid/hook'],
  ] as const) {
    const created = await api.post<Endpoint>('/v1/webhook-endpoints', { url: given, enabled_events: ['*'] });
    t.equal(created.status, 201, given);
    t.equal(created.body.url, kept, given);
    const moved = await api.send<Endpoint>('PATCH', `/v1/webhook-endpoints/${created.body.id}`, { body: { url: `${given}?v=2` } });
    t.equal(moved.body.url, new URL(`${kept}?v=2`).href, `${given}, updated`);
  }
});

t.test('localhost names and port 0 are refused at creation, whatever DNS says of them', async (t) => {
  // Before, a name of the reserved .localhost domain (RFC 6761: always loopback) that the
  // machine's DNS did not answer was accepted, like a name not yet published; so was port 0,
  // to which no connection can be opened. Each then failed every delivery.
  for (const [url, message] of [
    ['https://localhost./hook', /localhost\. is not a public address: loopback/],
    ['https://hooks.localhost/hook', /hooks\.localhost is not a public address: loopback/],
    ['https://HOOKS.LOCALHOST./hook', /hooks\.localhost\. is not a public address: loopback/],
    ['https://hooks.unresolvable.invalid:0/hook', /port 0/],
  ] as const) {
    const res = await api.post<{ error: { code: string; param: string; message: string } }>('/v1/webhook-endpoints', { url, enabled_events: ['*'] });
    t.equal(res.status, 400, url);
    t.match(res.body.error, { code: 'validation_failed', param: 'url', message }, url);
  }
  t.equal((await api.post('/v1/webhook-endpoints', { url: 'https://localhost.unresolvable.invalid/hook', enabled_events: ['*'] })).status, 201, 'a name that only contains the word is not one');
});

t.test('a url with a fragment is a 400 at creation and update: the fragment never reaches the receiver', async (t) => {
  // Before, https://…/hook#orders was stored and shown as the endpoint's url while every delivery went to https://…/hook.
  const created = await api.post<{ error: { code: string; param: string; message: string } }>('/v1/webhook-endpoints', { url: `${URL_A}#orders`, enabled_events: ['*'] });
  t.equal(created.status, 400);
  t.match(created.body.error, { code: 'validation_failed', param: 'url', message: /fragment/ });
  const endpoint = (await api.post<Endpoint>('/v1/webhook-endpoints', { url: URL_A, enabled_events: ['*'] })).body;
  const moved = await api.send<{ error: { param: string } }>('PATCH', `/v1/webhook-endpoints/${endpoint.id}`, { body: { url: `${URL_A}#` } });
  t.equal(moved.status, 400);
  t.equal(moved.body.error.param, 'url');
  t.equal((await api.get<Endpoint>(`/v1/webhook-endpoints/${endpoint.id}`)).body.url, URL_A, 'unchanged');
});

t.test('a url whose port cannot exist is a 400 naming the port, at creation and update', async (t) => {
  // Before, port 99999 was "must be an absolute https URL", which it is. (Port 0: the test above.)
  for (const url of ['https://example.com:99999/hook', 'https://[2606:4700::1]:70000/hook', 'https://u@example.com:65536']) {
    const res = await api.post<{ error: { code: string; param: string; message: string } }>('/v1/webhook-endpoints', { url, enabled_events: ['*'] });
    t.equal(res.status, 400, url);
    t.match(res.body.error, { code: 'validation_failed', param: 'url', message: /port from 1 to 65535/ }, url);
  }
  const endpoint = (await api.post<Endpoint>('/v1/webhook-endpoints', { url: URL_A, enabled_events: ['*'] })).body;
  const moved = await api.send<{ error: { message: string } }>('PATCH', `/v1/webhook-endpoints/${endpoint.id}`, { body: { url: 'https://example.com:99999/hook' } });
  t.equal(moved.status, 400);
  t.match(moved.body.error.message, /port from 1 to 65535/);
  t.equal((await api.get<Endpoint>(`/v1/webhook-endpoints/${endpoint.id}`)).body.url, URL_A, 'unchanged');
});

t.test('a blank description is none (null), as the console stores it', async (t) => {
  const created = await api.post<Endpoint>('/v1/webhook-endpoints', { url: URL_A, enabled_events: ['*'], description: '   ' });
  t.equal(created.status, 201);
  t.equal(created.body.description, null);
  await api.send('PATCH', `/v1/webhook-endpoints/${created.body.id}`, { body: { description: 'Orders' } });
  const cleared = await api.send<Endpoint>('PATCH', `/v1/webhook-endpoints/${created.body.id}`, { body: { description: '' } });
  t.equal(cleared.body.description, null);
});

t.test('an update of an endpoint that does not exist is a 404, whatever the url it gives', async (t) => {
  // Before, the url was judged first: a refused one answered 400 for an endpoint that is not there.
  const res = await api.send<{ error: { code: string } }>('PATCH', '/v1/webhook-endpoints/we_missing', { body: { url: 'https://127.0.0.1/hook' } });
  t.equal(res.status, 404);
  t.equal(res.body.error.code, 'not_found');
});

t.test('enabled_events: duplicates are dropped however many there are; only a list past 256 entries is refused, saying so', async (t) => {
  // Before, duplicates counted against a bound of 31 entries (one per type, and *): 32 entries
  // naming two types were refused with "Too big: expected array to have <=31 items".
  const repeated = [...Array.from({ length: 40 }, () => 'contact.created'), 'deal.created', 'contact.created'];
  const created = await api.post<Endpoint>('/v1/webhook-endpoints', { url: URL_A, enabled_events: repeated });
  t.equal(created.status, 201);
  t.same(created.body.enabled_events, ['contact.created', 'deal.created']);
  const huge = await api.post<{ error: { code: string; param: string; message: string } }>('/v1/webhook-endpoints', {
    url: URL_A,
    enabled_events: Array.from({ length: 257 }, () => 'contact.created'),
  });
  t.equal(huge.status, 400);
  t.match(huge.body.error, { code: 'validation_failed', param: 'enabled_events', message: 'enabled_events: must have at most 256 entries' });
});

t.test('an empty update, repeated event types or a url kept as written before urls were parsed change nothing either', async (t) => {
  const endpoint = (await api.post<Endpoint & { updated_at: string }>('/v1/webhook-endpoints', { url: URL_A, enabled_events: ['contact.created'], description: 'Same' })).body;
  // As an endpoint created before urls were stored as parsed keeps it: a PATCH repeating it is no move (before: one, resetting failing_since).
  const asWritten = URL_A.replace(/^https?:\/\/[^/]+/, (origin) => origin.toUpperCase());
  await stack.db.query('update webhook_endpoints set url = $1 where id = $2', [asWritten, endpoint.id]);
  for (const body of [{}, { description: 'Same', status: 'enabled' }, { url: URL_A, enabled_events: ['contact.created', 'contact.created'] }, { url: asWritten }]) {
    const res = await api.send<{ updated_at: string }>('PATCH', `/v1/webhook-endpoints/${endpoint.id}`, { body });
    t.equal(res.status, 200, JSON.stringify(body));
    t.equal(res.body.updated_at, endpoint.updated_at, JSON.stringify(body));
  }
  t.same((await eventsOf(endpoint.id)).map((e) => e.type), ['webhook_endpoint.created']);
});

t.test('enabled_events: a prefix (contact. as the events feed takes it, or contact.*) is refused naming the types to list instead', async (t) => {
  // Before, it was told only "must be an event type (e.g. contact.created) or *", as for a typo.
  for (const prefix of ['contact.', 'contact.*']) {
    const res = await api.post<{ error: { code: string; param: string; message: string } }>('/v1/webhook-endpoints', { url: URL_A, enabled_events: ['deal.created', prefix] });
    t.equal(res.status, 400, prefix);
    t.match(res.body.error, { code: 'validation_failed', param: 'enabled_events.1' }, prefix);
    t.match(res.body.error.message, /prefix/, prefix);
    t.match(res.body.error.message, 'contact.created, contact.updated, contact.archived', prefix);
  }
  const typo = await api.post<{ error: { message: string } }>('/v1/webhook-endpoints', { url: URL_A, enabled_events: ['contact.exploded'] });
  t.equal(typo.body.error.message, 'enabled_events.0: must be an event type (e.g. contact.created) or *', 'a type that does not exist is told as before');
});

t.test('other refused input: a clear 400 naming the field', async (t) => {
  const cases: [unknown, string][] = [
    [{ url: URL_A, enabled_events: [] }, 'enabled_events'],
    [{ url: URL_A, enabled_events: ['contact.exploded'] }, 'enabled_events.0'],
    [{ url: 'not a url', enabled_events: ['*'] }, 'url'],
    [{ url: URL_A, enabled_events: ['*'], status: 'paused' }, 'status'],
    [{ url: URL_A, enabled_events: ['*'], secret: 'whsec_mine' }, 'secret'],
    [{ enabled_events: ['*'] }, 'url'],
  ];
  for (const [body, param] of cases) {
    const res = await api.post<{ error: { code: string; param: string } }>('/v1/webhook-endpoints', body);
    t.equal(res.status, 400, JSON.stringify(body));
    t.equal(res.body.error.param, param, JSON.stringify(body));
  }
  t.equal((await api.get('/v1/webhook-endpoints/we_missing')).status, 404);
  const noScope = client(stack.baseUrl, await stack.token(ws.workspace.id, ['contacts:write']));
  t.equal((await noScope.get('/v1/webhook-endpoints')).status, 403, 'needs webhooks:write');
});

t.test('a test event to an address that does not resolve: a failed attempt naming the reason, listed with its delivery; retried by hand', async (t) => {
  const endpoint = (await api.post<Endpoint>('/v1/webhook-endpoints', { url: 'https://nowhere.unresolvable.invalid/hook', enabled_events: ['*'] })).body;
  const sent = await api.post<Delivery>(`/v1/webhook-endpoints/${endpoint.id}/test`, {});
  t.equal(sent.status, 201);
  t.match(sent.body, { status: 'pending', event_type: 'webhook_endpoint.test', attempts: [] });
  t.match(sent.body.id, /^msg_/);

  const settled = async (count: number) => {
    for (let i = 0; i < 200; i++) {
      const list = await api.get<{ data: Delivery[] }>(`/v1/webhook-endpoints/${endpoint.id}/deliveries`);
      const delivery = list.body.data.find((d) => d.id === sent.body.id);
      if (delivery && delivery.status !== 'pending' && delivery.attempts.length >= count) return delivery;
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error('the test delivery was not attempted');
  };
  const failed = await settled(1);
  t.equal(failed.status, 'failed', 'a test event is not retried');
  t.match(failed.attempts[0], { succeeded: false, status_code: null, error: /refused: nowhere\.unresolvable\.invalid does not resolve/ });

  const retried = await api.post<Delivery>(`/v1/webhook-endpoints/${endpoint.id}/deliveries/${sent.body.id}/retry`, {});
  t.equal(retried.status, 200);
  t.equal(retried.body.status, 'pending');
  t.equal((await settled(2)).attempts.length, 2, 'one more attempt');

  t.equal((await api.post(`/v1/webhook-endpoints/${endpoint.id}/deliveries/msg_missing/retry`, {})).status, 404);
  await api.send('PATCH', `/v1/webhook-endpoints/${endpoint.id}`, { body: { status: 'disabled' } });
  t.equal((await api.post(`/v1/webhook-endpoints/${endpoint.id}/test`, {})).status, 409, 'a disabled endpoint receives nothing, tests included');
});

t.test("an endpoint's deliveries page by links.next, which names the endpoint", async (t) => {
  const endpoint = (await api.post<Endpoint>('/v1/webhook-endpoints', { url: 'https://paged.unresolvable.invalid/hook', enabled_events: ['*'] })).body;
  // '*' also takes the endpoint's own webhook_endpoint.created, queued once the relay has
  // published it: waited for, else on a busy machine the count below raced the relay.
  for (let i = 0; ; i++) {
    const list = await api.get<{ data: Delivery[] }>(`/v1/webhook-endpoints/${endpoint.id}/deliveries`);
    if (list.body.data.some((d) => d.event_type === 'webhook_endpoint.created')) break;
    if (i >= 400) throw new Error('the webhook_endpoint.created delivery was not queued');
    await new Promise((r) => setTimeout(r, 50));
  }
  const sent: string[] = [];
  for (let i = 0; i < 3; i++) sent.push((await api.post<Delivery>(`/v1/webhook-endpoints/${endpoint.id}/test`, {})).body.id);
  const { ids: seen } = await api.allPages<Delivery>(`/v1/webhook-endpoints/${endpoint.id}/deliveries?limit=1`, ({ links: { next } }) => {
    if (next !== null) t.ok(next.startsWith(`${stack.baseUrl}/v1/webhook-endpoints/${endpoint.id}/deliveries?`), `the link names this endpoint: ${next}`);
  });
  // '*' also takes the endpoint's own webhook_endpoint.created (one delivery more than the tests sent).
  t.equal(new Set(seen).size, seen.length, 'no delivery twice');
  t.same(sent.filter((id) => !seen.includes(id)), [], 'every test delivery on some page');
  t.equal(seen.length, 4, 'one per page, the last page without a link');
});

t.test("an endpoint's deliveries filtered by status, page by page, the filter kept in links.next", async (t) => {
  // Before, the list took no filter: finding the failed deliveries to retry meant reading every one.
  const endpoint = (await api.post<Endpoint>('/v1/webhook-endpoints', { url: 'https://filtered.unresolvable.invalid/hook', enabled_events: ['*'] })).body;
  const tests: string[] = [];
  for (let i = 0; i < 3; i++) tests.push((await api.post<Delivery>(`/v1/webhook-endpoints/${endpoint.id}/test`, {})).body.id);
  // The test events fail at their one attempt (the name does not resolve); the endpoint's own
  // webhook_endpoint.created stays pending, its next attempt a minute after its first.
  for (let i = 0; ; i++) {
    const all = (await api.get<{ data: Delivery[] }>(`/v1/webhook-endpoints/${endpoint.id}/deliveries`)).body.data;
    if (all.filter((d) => d.status === 'failed').length === 3 && all.some((d) => d.event_type === 'webhook_endpoint.created')) break;
    if (i >= 400) throw new Error(`the deliveries did not settle: ${JSON.stringify(all)}`);
    await new Promise((r) => setTimeout(r, 50));
  }
  const failed = await api.allPages<Delivery>(`/v1/webhook-endpoints/${endpoint.id}/deliveries?status=failed&limit=1`, ({ links: { next } }) => {
    if (next !== null) t.match(next, /[?&]status=failed(&|$)/, 'the next page keeps the filter');
  });
  t.same([...failed.ids].sort(), [...tests].sort(), 'the failed ones: the three test events');
  t.ok(failed.items.every((d) => d.status === 'failed'));
  const pending = await api.get<{ data: Delivery[] }>(`/v1/webhook-endpoints/${endpoint.id}/deliveries?status=pending`);
  t.same(pending.body.data.map((d) => d.event_type), ['webhook_endpoint.created']);
  t.same((await api.get<{ data: Delivery[] }>(`/v1/webhook-endpoints/${endpoint.id}/deliveries?status=succeeded`)).body.data, []);

  const refused = await api.get<{ error: { code: string; param: string } }>(`/v1/webhook-endpoints/${endpoint.id}/deliveries?status=delivered`);
  t.match(refused, { status: 400, body: { error: { code: 'validation_failed', param: 'status' } } });
  const firstPage = await api.get<{ links: { next: string | null } }>(`/v1/webhook-endpoints/${endpoint.id}/deliveries?status=failed&limit=1`);
  const cursor = new URL(firstPage.body.links.next ?? 'http://none/').searchParams.get('cursor');
  const otherFilter = await api.get<{ error: { code: string } }>(`/v1/webhook-endpoints/${endpoint.id}/deliveries?status=pending&cursor=${encodeURIComponent(cursor ?? '')}`);
  t.match(otherFilter, { status: 400, body: { error: { code: 'invalid_cursor' } } }, 'a cursor continues only the query it came from');
});

t.test('an endpoint receives only what its creator may read: each type needs its read scope, and a member who sees only their own records points none', async (t) => {
  type Refusal = { error: { code: string; required_scope?: string } };
  const hooksOnly = client(stack.baseUrl, await stack.token(ws.workspace.id, ['webhooks:write', 'events:read']));
  const before = await listIds();
  // Before, a record's read scope was enough: a token that may not read the change history received it.
  const withoutFeed = client(stack.baseUrl, await stack.token(ws.workspace.id, ['webhooks:write', 'contacts:read', 'deals:read']));
  for (const types of [['contact.created'], ['webhook_endpoint.updated'], ['*']]) {
    const res = await withoutFeed.post<Refusal>('/v1/webhook-endpoints', { url: URL_A, enabled_events: types });
    t.match(res, { status: 403, body: { error: { code: 'missing_scope', required_scope: 'events:read' } } }, `without events:read: ${types.join()}`);
  }
  for (const [types, scope] of [
    [['contact.created'], 'contacts:read'],
    [['note.created'], 'contacts:read'],
    [['deal.stage_changed', 'webhook_endpoint.created'], 'deals:read'],
    [['custom_field.created'], 'schema:read'],
    [['token.created'], 'tokens:write'],
    [['*'], 'contacts:read'],
  ] as const) {
    const res = await hooksOnly.post<Refusal>('/v1/webhook-endpoints', { url: URL_A, enabled_events: types });
    t.equal(res.status, 403, types.join());
    t.match(res.body.error, { code: 'missing_scope', required_scope: scope }, types.join());
  }
  t.same(await listIds(), before, 'nothing was created');
  const own = await hooksOnly.post<Endpoint>('/v1/webhook-endpoints', { url: URL_A, enabled_events: ['webhook_endpoint.updated'] });
  t.equal(own.status, 201, 'events of its own kind it may read, so receive');

  // An endpoint someone who reads contacts made: the lesser token may neither re-point nor widen what it receives.
  const theirs = (await api.post<Endpoint>('/v1/webhook-endpoints', { url: URL_A, enabled_events: ['contact.created'] })).body;
  const moved = await hooksOnly.send<Refusal>('PATCH', `/v1/webhook-endpoints/${theirs.id}`, { body: { url: 'https://elsewhere.unresolvable.invalid/collect' } });
  t.match(moved, { status: 403, body: { error: { code: 'missing_scope', required_scope: 'contacts:read' } } }, 'a new url for contact events');
  const widened = await hooksOnly.send<Refusal>('PATCH', `/v1/webhook-endpoints/${own.body.id}`, { body: { enabled_events: ['*'] } });
  t.equal(widened.status, 403, 'more types than it may read');
  t.match((await api.get<Endpoint>(`/v1/webhook-endpoints/${theirs.id}`)).body, { url: URL_A, enabled_events: ['contact.created'] }, 'unchanged');
  const renamed = await hooksOnly.send<Endpoint>('PATCH', `/v1/webhook-endpoints/${theirs.id}`, { body: { description: 'Renamed', status: 'disabled' } });
  t.match(renamed, { status: 200, body: { description: 'Renamed', status: 'disabled', url: URL_A } }, 'its description and status it may change');

  const readsContacts = client(stack.baseUrl, await stack.token(ws.workspace.id, ['webhooks:write', 'events:read', 'contacts:read']));
  t.equal((await readsContacts.post('/v1/webhook-endpoints', { url: URL_A, enabled_events: ['contact.created', 'contact.updated'] })).status, 201);
  const notes = await readsContacts.post<Refusal>('/v1/webhook-endpoints', { url: URL_A, enabled_events: ['note.created'] });
  t.match(notes, { status: 403, body: { error: { required_scope: 'deals:read' } } }, "a note's events are a contact's or a deal's: both scopes");

  // A console member with `owned` visibility and the Configuration permission (the console's bus call).
  const gateway = await busAs(t, stack, 'gateway', { timeoutMs: 15_000 });
  const owned: CallContext = {
    workspace_id: ws.workspace.id,
    principal: { type: 'user', id: ws.user.id, scopes: ['webhooks:write', 'events:read', 'contacts:read', 'deals:read', 'schema:read', 'tokens:write'] },
    visibility: 'owned',
  };
  const ownedCount = (await listIds()).length;
  await t.rejects(gateway.call(createWebhookEndpoint, { url: URL_A, enabled_events: ['webhook_endpoint.updated'] }, { context: owned, requestId: 'req_owned_endpoint' }), { code: 'forbidden' });
  t.equal((await listIds()).length, ownedCount, 'nothing was created');
});

t.test("a wrong type for enabled_events or expire_previous_in is a 400 saying what it takes, not zod's words, and changes nothing", async (t) => {
  // Before: "enabled_events: Invalid input: expected array, received string", and for
  // expire_previous_in "Invalid input: expected number, received string", "Too small: expected
  // number to be >=0", "Invalid input: expected int, received number".
  const created = await api.post<{ error: { param: string; message: string } }>('/v1/webhook-endpoints', { url: URL_A, enabled_events: '*' });
  t.equal(created.status, 400);
  t.match(created.body.error, { param: 'enabled_events', message: 'enabled_events: must be a list of event types, e.g. ["contact.created"], or ["*"] for every one' });
  t.notMatch(created.body.error.message, /Invalid input/);

  const endpoint = (await api.post<Endpoint>('/v1/webhook-endpoints', { url: URL_A, enabled_events: ['contact.created'] })).body;
  const patched = await api.send<{ error: { param: string; message: string } }>('PATCH', `/v1/webhook-endpoints/${endpoint.id}`, { body: { enabled_events: 'contact.updated' } });
  t.match(patched.body.error, { param: 'enabled_events', message: /must be a list of event types/ });
  const absent = await api.post<{ error: { message: string } }>('/v1/webhook-endpoints', { url: URL_A });
  t.equal(absent.body.error.message, 'enabled_events: is required', 'left out: still said as such');
  const nulled = await api.post<{ error: { message: string } }>('/v1/webhook-endpoints', { url: URL_A, enabled_events: null });
  t.equal(nulled.body.error.message, 'enabled_events: must not be null: expected array', 'null: still said as such');

  for (const value of ['3600', -1, 1.5, 604_801, true]) {
    const res = await api.post<{ error: { code: string; param: string; message: string } }>(`/v1/webhook-endpoints/${endpoint.id}/rotate-secret`, { expire_previous_in: value });
    t.equal(res.status, 400, JSON.stringify(value));
    t.match(
      res.body.error,
      { code: 'validation_failed', param: 'expire_previous_in', message: 'expire_previous_in: must be a whole number of seconds (a JSON number, e.g. 3600) from 0 to 604800 (7 days)' },
      JSON.stringify(value),
    );
  }
  const after = (await api.get<Endpoint>(`/v1/webhook-endpoints/${endpoint.id}`)).body;
  t.equal(after.secret_rotated_at, null, 'no refused rotation replaced the secret');
  t.same(after.enabled_events, ['contact.created']);
});

t.test("a delivery's errors name the path parameter at fault: delivery_id for the delivery, id for the endpoint", async (t) => {
  // Before, a delivery not found (or not retryable) was param "id", which in
  // /v1/webhook-endpoints/{id}/deliveries/{delivery_id} is the endpoint, and a disabled
  // endpoint was param "endpoint_id", which no path or body has.
  type Refusal = { error: { code: string; param: string; message: string } };
  const writer = client(stack.baseUrl, await stack.token(ws.workspace.id, ['contacts:write']));
  const endpoint = (await api.post<Endpoint>('/v1/webhook-endpoints', { url: 'https://params.unresolvable.invalid/hook', enabled_events: ['contact.created'] })).body;
  const other = (await api.post<Endpoint>('/v1/webhook-endpoints', { url: 'https://params-other.unresolvable.invalid/hook', enabled_events: ['contact.created'] })).body;
  await writer.post('/v1/contacts', { first_name: 'Param', phone: '+1 415 555 0777' });
  let delivery: Delivery | undefined;
  for (let i = 0; i < 200 && !delivery?.attempts.length; i++) {
    delivery = (await api.get<{ data: Delivery[] }>(`/v1/webhook-endpoints/${endpoint.id}/deliveries`)).body.data[0];
    await new Promise((r) => setTimeout(r, 50));
  }
  if (!delivery) return t.fail('no delivery');
  t.equal(delivery.status, 'pending', 'failed once, retried on schedule');

  const missing = await api.get<Refusal>(`/v1/webhook-endpoints/${endpoint.id}/deliveries/msg_missing`);
  t.match(missing, { status: 404, body: { error: { code: 'not_found', param: 'delivery_id' } } });
  const elsewhere = await api.post<Refusal>(`/v1/webhook-endpoints/${other.id}/deliveries/${delivery.id}/retry`, {});
  t.match(elsewhere, { status: 404, body: { error: { code: 'not_found', param: 'delivery_id' } } }, "another endpoint's delivery");
  const noEndpoint = await api.post<Refusal>(`/v1/webhook-endpoints/we_missing/deliveries/${delivery.id}/retry`, {});
  t.match(noEndpoint, { status: 404, body: { error: { code: 'not_found' } } }, 'the endpoint');
  t.equal(noEndpoint.body.error.param, 'id', 'the endpoint: named as its path parameter (a string pattern would also match endpoint_id)');

  await api.send('PATCH', `/v1/webhook-endpoints/${endpoint.id}`, { body: { enabled_events: ['contact.updated'] } });
  const notEnabled = await api.post<Refusal>(`/v1/webhook-endpoints/${endpoint.id}/deliveries/${delivery.id}/retry`, {});
  t.match(notEnabled, { status: 409, body: { error: { code: 'conflict', param: 'delivery_id', message: /no longer enables contact\.created/ } } });

  await api.send('PATCH', `/v1/webhook-endpoints/${endpoint.id}`, { body: { status: 'disabled' } });
  const disabled = await api.post<Refusal>(`/v1/webhook-endpoints/${endpoint.id}/deliveries/${delivery.id}/retry`, {});
  t.match(disabled, { status: 409, body: { error: { code: 'conflict', message: /disabled/ } } });
  t.equal(disabled.body.error.param, 'id', 'the endpoint, not endpoint_id');
});

t.test('a test event or a retry racing the deletion or disabling of its endpoint: a 404 or a 409, nothing queued', async (t) => {
  // Before, both read the endpoint without waiting for a change under way: a test event for an
  // endpoint being deleted was a 500 (the delivery's foreign key), and one being disabled, or a
  // retry of a delivery of it, was accepted and queued for an endpoint that receives nothing.
  type Refusal = { error: { code: string; param: string; message: string } };
  const testsOf = async (id: string) => stack.db.query('select id from webhook_deliveries where endpoint_id = $1 and event_type = $2', [id, 'webhook_endpoint.test']);

  const deleted = (await api.post<Endpoint>('/v1/webhook-endpoints', { url: 'https://race-deleted.unresolvable.invalid/hook', enabled_events: ['contact.created'] })).body;
  const deletion = [{ sql: 'delete from webhook_endpoints where id = $1', params: [deleted.id] }];
  const afterDeletion = await whileHeld(stack.db.url, deletion, () => api.post<Refusal>(`/v1/webhook-endpoints/${deleted.id}/test`, {}));
  t.ok(afterDeletion.waited, 'the test event waits for the deletion');
  t.match(afterDeletion.result, { status: 404, body: { error: { code: 'not_found', param: 'id' } } });

  const disabled = (await api.post<Endpoint>('/v1/webhook-endpoints', { url: 'https://race-disabled.unresolvable.invalid/hook', enabled_events: ['contact.created'] })).body;
  const failed = (await api.post<Delivery>(`/v1/webhook-endpoints/${disabled.id}/test`, {})).body;
  for (let i = 0; ; i++) {
    const delivery = (await api.get<Delivery>(`/v1/webhook-endpoints/${disabled.id}/deliveries/${failed.id}`)).body;
    if (delivery.status === 'failed') break;
    if (i >= 400) return t.fail(`the test event was not attempted: ${JSON.stringify(delivery)}`);
    await new Promise((r) => setTimeout(r, 50));
  }
  const disabling = [{ sql: "update webhook_endpoints set status = 'disabled' where id = $1", params: [disabled.id] }];
  const testWhileDisabling = await whileHeld(stack.db.url, disabling, () => api.post<Refusal>(`/v1/webhook-endpoints/${disabled.id}/test`, {}));
  t.ok(testWhileDisabling.waited, 'the test event waits for the change of status');
  t.match(testWhileDisabling.result, { status: 409, body: { error: { code: 'conflict', message: /disabled/ } } });
  t.equal((await testsOf(disabled.id)).length, 1, 'no test event queued for the disabled endpoint');

  await api.send('PATCH', `/v1/webhook-endpoints/${disabled.id}`, { body: { status: 'enabled' } });
  const retryWhileDisabling = await whileHeld(stack.db.url, disabling, () => api.post<Refusal>(`/v1/webhook-endpoints/${disabled.id}/deliveries/${failed.id}/retry`, {}));
  t.ok(retryWhileDisabling.waited, 'the retry waits for the change of status');
  t.match(retryWhileDisabling.result, { status: 409, body: { error: { code: 'conflict', message: /disabled/ } } });
  t.equal((await api.get<Delivery>(`/v1/webhook-endpoints/${disabled.id}/deliveries/${failed.id}`)).body.status, 'failed', 'the delivery left as it was');
});

t.test(`a workspace has at most ${MAX_WEBHOOK_ENDPOINTS} endpoints, enabled or disabled: the next is a 409 naming the limit, and two creations at the cap never both pass`, async (t) => {
  const own = await stack.bootstrap();
  const hooks = client(stack.baseUrl, await stack.token(own.workspace.id, ['webhooks:write', 'events:read', 'contacts:read']));
  const create = (i: number, status = 'enabled') => hooks.post<Endpoint & { error?: { code: string; message: string } }>('/v1/webhook-endpoints', { url: `https://cap-${i}.unresolvable.invalid/hook`, enabled_events: ['contact.created'], status });
  const made: string[] = [];
  for (let i = 0; i < MAX_WEBHOOK_ENDPOINTS - 1; i++) {
    const res = await create(i, i % 2 === 0 ? 'disabled' : 'enabled');
    t.equal(res.status, 201, `endpoint ${i + 1} created`);
    made.push(res.body.id);
  }
  // The last place, asked for twice at once: exactly one gets it.
  const racing = await Promise.all([create(100), create(101), create(102)]);
  t.same(racing.map((r) => r.status).sort(), [201, 409, 409], 'one creation takes the last place');
  const refused = racing.find((r) => r.status === 409);
  t.equal(refused?.body.error?.code, 'conflict');
  t.match(refused?.body.error?.message, new RegExp(`at most ${MAX_WEBHOOK_ENDPOINTS} webhook endpoints, enabled or disabled, and this one has ${MAX_WEBHOOK_ENDPOINTS}; delete one`));
  const stored = await stack.db.query<{ n: string }>('select count(*) as n from webhook_endpoints where workspace_id = $1', [own.workspace.id]);
  t.equal(Number(stored[0]?.n), MAX_WEBHOOK_ENDPOINTS, 'no more stored than the limit');
  const created = await stack.db.query<{ n: string }>("select count(*) as n from events where workspace_id = $1 and type = 'webhook_endpoint.created'", [own.workspace.id]);
  t.equal(Number(created[0]?.n), MAX_WEBHOOK_ENDPOINTS, 'a refused creation records no event');

  t.equal((await hooks.send('DELETE', `/v1/webhook-endpoints/${made[0]}`)).status, 200);
  t.equal((await create(200)).status, 201, 'a deleted endpoint frees its place');
  t.equal((await api.post('/v1/webhook-endpoints', { url: URL_A, enabled_events: ['*'] })).status, 201, 'another workspace has places of its own');
});

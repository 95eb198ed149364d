import { randomBytes } from 'node:crypto';
import t from 'tap';
import { authenticateToken } from '../../shared/contracts/tokens.js';
import type { ErrorBody } from '../helpers/api-types.js';
import { countBusCalls } from '../helpers/bus-call-counter.js';
import { request } from '../helpers/http.js';
import { startStack } from '../helpers/stack.js';

/**
 * Well-formed but unknown `sk_live_` tokens, sent from chosen client addresses (TRUST_PROXY
 * lets X-Forwarded-For name them). Before, each one cost a bus call and a query, with no
 * limit. The test watches the authenticate subject on the real NATS with a plain
 * subscription, which sees every request the gateway sends to the tokens workers.
 */
const FAILED_AUTH_LIMIT = 8;
const stack = await startStack({ env: { RATE_LIMIT_FAILED_AUTH_PER_MINUTE: String(FAILED_AUTH_LIMIT), TRUST_PROXY: '1' } });
t.teardown(() => stack.stop());
const { workspace } = await stack.bootstrap();

const tokenLookups = await countBusCalls(t, stack, authenticateToken);
/** Tokens looked up by the workers while `fn` ran. */
const lookupsDuring = (fn: () => Promise<void>) => tokenLookups.during(fn);

const unknownToken = () => `sk_live_${randomBytes(40).toString('base64url').replace(/[-_]/g, 'x').slice(0, 43)}`;
const from = (ip: string, token: string, path = '/v1/me') => request<ErrorBody>(`${stack.baseUrl}${path}`, { token, headers: { 'x-forwarded-for': ip } });

/** Limits count per clock minute: start a scenario early in one, so that it ends in the same one. */
async function freshWindow(): Promise<void> {
  const into = Date.now() % 60_000;
  if (into > 40_000) await new Promise((r) => setTimeout(r, 60_000 - into + 200));
}

t.test('an unknown or revoked token is looked up once, then refused from a cache keyed by its hash', async (t) => {
  const unknown = unknownToken();
  const repeated = await lookupsDuring(async () => {
    for (let i = 0; i < 5; i++) {
      const res = await from(`198.51.100.${i + 1}`, unknown);
      t.equal(res.status, 401);
      t.equal(res.body.error.code, 'unauthenticated');
      t.match(res.headers.get('www-authenticate'), /error="invalid_token"/);
    }
  });
  t.equal(repeated, 1, 'five tries, one lookup (before: five)');

  const token = await stack.token(workspace.id, ['contacts:read']);
  t.equal((await from('198.51.100.10', token)).status, 200);
  const id = (await stack.db.query<{ id: string }>('select id from api_tokens where workspace_id = $1', [workspace.id]))[0]?.id;
  await stack.crm(['tokens', 'revoke', '--workspace', workspace.id, id ?? '']);
  const revokedLookups = await lookupsDuring(async () => {
    for (let i = 0; i < 4; i++) t.match((await from('198.51.100.10', token)).body.error.message, /revoked/);
  });
  t.equal(revokedLookups, 1, 'the revocation is looked up once, then remembered');
  t.notMatch(await stack.allOutput(), unknown, 'the unknown token is in no log');
});

t.test('an address presenting bad tokens gets 429 with Retry-After and costs no more lookups', async (t) => {
  await freshWindow();
  const flooder = '203.0.113.50';
  const refusedFirst = await lookupsDuring(async () => {
    for (let i = 0; i < FAILED_AUTH_LIMIT; i++) t.equal((await from(flooder, unknownToken())).status, 401, `bad token ${i + 1} is a 401`);
  });
  t.equal(refusedFirst, FAILED_AUTH_LIMIT, 'up to the limit, each is looked up');

  const limited = await from(flooder, unknownToken());
  t.equal(limited.status, 429, 'one more is a 429');
  t.equal(limited.body.error.code, 'rate_limited');
  t.ok(Number(limited.headers.get('retry-after')) >= 1, 'with Retry-After');
  const rateLimitHeaders = (res: typeof limited) => ['limit', 'remaining', 'policy'].map((h) => res.headers.get(`ratelimit-${h}`));
  t.same(rateLimitHeaders(limited), [String(FAILED_AUTH_LIMIT), '0', `${FAILED_AUTH_LIMIT};w=60`], 'and the RateLimit-* headers of the limit');
  t.ok(Number(limited.headers.get('ratelimit-reset')) >= 1, 'RateLimit-Reset');
  const blocked = await from(flooder, unknownToken());
  t.same(rateLimitHeaders(blocked), [String(FAILED_AUTH_LIMIT), '0', `${FAILED_AUTH_LIMIT};w=60`], 'also once the address is blocked (no lookup)');

  const flood = await lookupsDuring(async () => {
    const answers = await Promise.all(Array.from({ length: 50 }, () => from(flooder, unknownToken())));
    t.same([...new Set(answers.map((a) => a.status))], [429], 'the flood is all 429s');
    t.equal((await from(flooder, 'sk_live_short')).status, 429, 'malformed ones too');
  });
  t.equal(flood, 0, 'and the flood cost no lookup at all (before: 50)');

  const token = await stack.token(workspace.id, ['contacts:read']);
  t.equal((await from('203.0.113.51', token)).status, 200, 'another address is not affected');
  t.equal((await from('203.0.113.51', unknownToken())).status, 401, 'and still gets plain 401s');
});

t.test('a token found valid lately goes on working from an address blocked for bad tokens', async (t) => {
  await freshWindow();
  // A shared office: one script loops on a revoked token, another uses a good one.
  const office = '203.0.113.80';
  const good = await stack.token(workspace.id, ['contacts:read']);
  t.equal((await from(office, good)).status, 200, 'the good token works');
  for (let i = 0; i < FAILED_AUTH_LIMIT; i++) await from(office, unknownToken());
  t.equal((await from(office, unknownToken())).status, 429, 'the address is blocked for bad tokens');
  // Past the positive cache (AUTH_CACHE_TTL_MS, 3 s): before, the good token was a 429 now.
  await new Promise((r) => setTimeout(r, 3_500));
  const again = await lookupsDuring(async () => {
    t.equal((await from(office, good)).status, 200, 'the good token still works');
  });
  t.equal(again, 1, 'and is looked up as usual, so a revocation still counts');
  t.equal((await from(office, unknownToken())).status, 429, 'while bad tokens from there stay refused without a lookup');
  t.equal((await from(office, await stack.token(workspace.id, ['contacts:read']))).status, 429, 'as does a token never seen valid');
  // Revoked, it no longer passes: it is refused from there like any bad token, without a lookup.
  const me = await request<{ id: string }>(`${stack.baseUrl}/v1/me`, { token: good, headers: { 'x-forwarded-for': '203.0.113.81' } });
  await stack.crm(['tokens', 'revoke', '--workspace', workspace.id, me.body.id]);
  await new Promise((r) => setTimeout(r, 3_500)); // past the positive cache, in case the revocation's event were missed
  const revoked = await lookupsDuring(async () => {
    t.equal((await from(office, good)).status, 429, 'the revoked token is refused at the block');
  });
  t.equal(revoked, 0, 'without a lookup');
});

t.test('the tool servers count refused tokens too, with their bearer challenge until the limit', async (t) => {
  await freshWindow();
  const agent = '203.0.113.60';
  const mcp = (token: string) =>
    fetch(`${stack.baseUrl}/mcp/crm`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'x-forwarded-for': agent, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }),
    });
  for (let i = 0; i < FAILED_AUTH_LIMIT; i++) {
    const res = await mcp(unknownToken());
    t.equal(res.status, 401);
    t.match(res.headers.get('www-authenticate'), /^Bearer error="invalid_token"/);
  }
  const limited = await mcp(unknownToken());
  t.equal(limited.status, 429);
  t.ok(Number(limited.headers.get('retry-after')) >= 1, 'with Retry-After');
  t.equal(((await limited.json()) as ErrorBody).error.code, 'rate_limited');
});

t.test('a sign-in form too large or with too many fields is a 4xx page, not a logged internal error', async (t) => {
  // Before, body-parser's refusals became 500 "Something went wrong" with an error line anyone could add.
  const post = (body: string, ip: string) =>
    fetch(`${stack.baseUrl}/sign-in`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-forwarded-for': ip }, body });
  const tooLarge = await post(`email=${'a'.repeat(11 * 1024)}`, '203.0.113.70');
  t.equal(tooLarge.status, 413);
  t.match(tooLarge.headers.get('content-type'), /^text\/html/);
  t.match(await tooLarge.text(), /The form is larger than this page accepts/);
  const tooMany = await post(Array.from({ length: 1001 }, (_, i) => `f${i}=`).join('&'), '203.0.113.71');
  t.equal(tooMany.status, 413);
  t.match(await tooMany.text(), /more fields than this page accepts/);
  const output = await stack.allOutput();
  t.notMatch(output, /page failed/, 'no error line');
  t.match(output, /page request refused/, 'an info line instead');
});

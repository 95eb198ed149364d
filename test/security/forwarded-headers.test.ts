import http from 'node:http';
import t from 'tap';
import { startStack } from '../helpers/stack.js';

/**
 * A gateway without TRUST_PROXY, reached directly by a client that sends the headers a proxy
 * would (X-Forwarded-For, Forwarded, X-Forwarded-Host and -Proto, a foreign Host): none of them
 * may pick its rate-limit address, reach a generated URL, or put anything but JSON lines in the log.
 */
const SIGN_IN_LIMIT = 5;
const stack = await startStack({ env: { RATE_LIMIT_SIGN_IN_PER_MINUTE: String(SIGN_IN_LIMIT) } });
t.teardown(() => stack.stop());
const { workspace } = await stack.bootstrap();
const token = await stack.token(workspace.id, ['contacts:read', 'contacts:write']);
const base = new URL(stack.baseUrl);

const SPOOFED = {
  'x-forwarded-for': '203.0.113.7',
  forwarded: 'for=203.0.113.7;proto=https;host=evil.example',
  'x-forwarded-host': 'evil.example',
  'x-forwarded-proto': 'https',
};

/** One request with headers fetch() would not send as given (Host among them). */
function send(method: string, path: string, headers: Record<string, string>, body?: string): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: base.hostname, port: base.port, method, path, headers: { ...(body ? { 'content-length': String(Buffer.byteLength(body)) } : {}), ...headers } }, (res) => {
      let text = '';
      res.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** Limits count per clock minute: start a scenario early in one, so that it ends in the same one. */
async function freshWindow(): Promise<void> {
  const into = Date.now() % 60_000;
  if (into > 40_000) await new Promise((r) => setTimeout(r, 60_000 - into + 200));
}

t.test('X-Forwarded-For and Forwarded sent to the OAuth endpoints leave no stack trace in the log', async (t) => {
  // Before, each of the four limiters printed a multi-line "ValidationError: The 'X-Forwarded-For' header
  // is set but the Express 'trust proxy' setting is false" the first time a client sent one: no JSON line.
  const form = { ...SPOOFED, 'content-type': 'application/x-www-form-urlencoded' };
  t.equal((await send('POST', '/oauth/register', { ...SPOOFED, 'content-type': 'application/json' }, JSON.stringify({ redirect_uris: ['http://127.0.0.1:9/cb'], client_name: 'spoofer' }))).status, 201);
  t.equal((await send('POST', '/oauth/token', form, 'grant_type=authorization_code&client_id=x')).status, 400);
  t.equal((await send('POST', '/oauth/revoke', form, 'token=x&client_id=x')).status, 400);
  t.equal((await send('GET', '/oauth/authorize?client_id=x', SPOOFED)).status, 400);
  const output = await stack.allOutput();
  t.notMatch(output, /ValidationError|ERR_ERL_/, 'no express-rate-limit warning');
  const gatewayLines = (await stack.gateway.settledText()).split('\n').filter((line) => line.trim() !== '');
  t.same(
    gatewayLines.filter((line) => { try { JSON.parse(line); return false; } catch { return true; } }),
    [],
    'every line the gateway wrote is JSON',
  );
});

t.test('without TRUST_PROXY, sign-ins are counted by the connecting address whatever X-Forwarded-For says', async (t) => {
  await freshWindow();
  const statuses: number[] = [];
  for (let i = 0; i < SIGN_IN_LIMIT + 2; i++) {
    const res = await send('POST', '/sign-in', { 'x-forwarded-for': `198.51.100.${i + 1}`, 'content-type': 'application/x-www-form-urlencoded' }, 'email=nobody%40example.com&password=x');
    statuses.push(res.status);
  }
  t.equal(statuses.filter((s) => s === 429).length, 2, `the attempts past the limit are refused: ${statuses.join(' ')}`);
});

t.test('a foreign Host, X-Forwarded-Host or -Proto reaches no URL the gateway writes', async (t) => {
  const headers = { ...SPOOFED, host: 'evil.example', authorization: `Bearer ${token}`, 'content-type': 'application/json' };
  for (const phone of ['+44 20 7946 0961', '+44 20 7946 0962']) {
    const created = await send('POST', '/v1/contacts', headers, JSON.stringify({ first_name: 'Ada', phone }));
    t.equal(created.status, 201);
    t.equal(created.headers.location?.startsWith(`${stack.baseUrl}/v1/contacts/con_`), true, `Location: ${created.headers.location}`);
  }
  const page = await send('GET', '/v1/contacts?limit=1', headers);
  t.match(JSON.parse(page.body), { links: { next: new RegExp(`^${stack.baseUrl}/v1/contacts\\?`) } });
  const metadata = JSON.parse((await send('GET', '/.well-known/oauth-authorization-server', SPOOFED)).body) as { issuer: string };
  t.equal(metadata.issuer, stack.baseUrl);
  const challenge = await send('POST', '/mcp/crm', { ...SPOOFED, 'content-type': 'application/json' }, '{}');
  t.equal(challenge.status, 401);
  t.match(challenge.headers['www-authenticate'], `resource_metadata="${stack.baseUrl}/.well-known/oauth-protected-resource/mcp/crm"`);
  t.notMatch(JSON.stringify([page.body, metadata, challenge.headers]), /evil\.example/);
});

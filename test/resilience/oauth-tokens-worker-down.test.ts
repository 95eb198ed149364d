import t from 'tap';
import { registerClient } from '../helpers/oauth-forms.js';
import { startStack } from '../helpers/stack.js';

/**
 * The token, revocation and registration endpoints while no tokens worker answers. Before,
 * they answered 400 temporarily_unavailable: a client that reads a 400 at refresh as "this
 * refresh token is dead" dropped its tokens and sent the user to sign in again. Now they
 * answer 503 with Retry-After, as the tool servers do when they cannot check a token.
 */
const stack = await startStack();
t.teardown(() => stack.stop());
const base = stack.baseUrl;
const clientId = await registerClient(base, 'http://127.0.0.1:9/cb');

t.test('with the tokens worker stopped, each endpoint answers 503 temporarily_unavailable with Retry-After', async (t) => {
  const tokens = stack.workers.find((w) => w.label === 'worker tokens');
  if (!tokens) throw new Error('no tokens worker');
  t.equal(await tokens.stop('SIGTERM', 30_000), 0, 'the tokens worker stopped');
  const form = (fields: Record<string, string>) => ({ method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(fields) });
  for (const [label, path, init] of [
    ['refresh', '/oauth/token', form({ grant_type: 'refresh_token', client_id: clientId, refresh_token: 'rt_x' })],
    ['revoke', '/oauth/revoke', form({ client_id: clientId, token: 'rt_x' })],
    ['register', '/oauth/register', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ redirect_uris: ['http://127.0.0.1:9/cb'] }) }],
  ] as const) {
    const res = await fetch(`${base}${path}`, init);
    const body = (await res.json()) as Record<string, unknown>;
    t.equal(res.status, 503, `${label}: 503, not a 400 that reads as a refused request`);
    t.equal(body.error, 'temporarily_unavailable', `${label}: temporarily_unavailable`);
    t.ok(Number(res.headers.get('retry-after')) >= 1, `${label}: Retry-After`);
    t.equal(res.headers.get('cache-control'), 'no-store', `${label}: no-store`);
  }
  await stack.startWorker('tokens');
  const refresh = await fetch(`${base}/oauth/token`, form({ grant_type: 'refresh_token', client_id: clientId, refresh_token: 'rt_x' }));
  t.equal(refresh.status, 400, 'with it back, an unknown refresh token is a 400 again');
  t.equal(((await refresh.json()) as Record<string, unknown>).error, 'invalid_grant');
});

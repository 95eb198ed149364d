import t from 'tap';
import { openDatabase } from '../../shared/db/orm.js';
import { purgeExpiredIdentityRecords, UNUSED_CLIENT_DAYS } from '../../workers/tokens/credentials/purge-expired.js';
import { authorizeUrl, authorizeWithForms, pkce, registerClient } from '../helpers/oauth-forms.js';
import { useStack } from '../helpers/shared-stack.js';
import { TEST_PASSWORD } from '../helpers/stack.js';

/**
 * Dynamic client registration lets anyone register any https redirect URI. Before, the
 * authorization endpoint redirected its errors there at once, before anyone signed in: a
 * link to this server became a redirect to any site (RFC 9700 §4.11.2). Then it did so once
 * anyone had approved the client, which its publisher can do in their own workspace; now
 * only for the browser's signed-in user who has (or had) a grant to it.
 */
const stack = await useStack(t);
const base = stack.baseUrl;
const ATTACKER = 'https://attacker.example/landing';
const TRUSTED = 'http://127.0.0.1:9/cb';
const { user } = await stack.bootstrap({ email: `redirects-${Date.now()}@example.test` });

/** Requests that fail after the client and redirect URI were found valid (errors that used to be redirected). */
const badRequests: [string, Record<string, string>][] = [
  ['plain PKCE', { code_challenge_method: 'plain' }],
  ['no PKCE', { code_challenge: '' }],
  ['another resource', { resource: 'https://elsewhere.example/mcp/crm' }],
  ['bad response_type', { response_type: 'token' }],
];

t.test('a client nobody approved gets its errors on our own page, never a redirect', async (t) => {
  const clientId = await registerClient(base, ATTACKER, 'Looks harmless');
  for (const [label, extra] of badRequests) {
    for (const method of ['GET', 'POST'] as const) {
      const url = new URL(authorizeUrl({ baseUrl: base, clientId, redirectUri: ATTACKER, server: 'crm', challenge: pkce().challenge }, extra));
      const res =
        method === 'GET'
          ? await fetch(url, { redirect: 'manual' })
          : await fetch(`${base}/oauth/authorize`, { method, redirect: 'manual', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: url.searchParams });
      t.equal(res.status, 400, `${label} (${method}): 400`);
      t.equal(res.headers.get('location'), null, `${label} (${method}): no redirect to ${ATTACKER}`);
      t.match(res.headers.get('content-type'), /^text\/html/, `${label} (${method}): our own page`);
      const page = await res.text();
      t.match(page, /cannot go on/);
      t.notMatch(page, /attacker\.example/, 'the page does not link to the registered URI either');
    }
  }
});

t.test("once this browser's user approved the client, its errors go back to it with state and iss", async (t) => {
  const clientId = await registerClient(base, TRUSTED, 'Approved agent');
  const challenge = pkce().challenge;
  const beforeConsent = await fetch(authorizeUrl({ baseUrl: base, clientId, redirectUri: TRUSTED, server: 'crm', challenge }, { code_challenge_method: 'plain' }), { redirect: 'manual' });
  t.equal(beforeConsent.status, 400, 'not redirected before the first consent');

  const { browser } = await authorizeWithForms({ baseUrl: base, clientId, redirectUri: TRUSTED, server: 'crm', email: user.email, password: TEST_PASSWORD, challenge });
  for (const [label, extra] of badRequests) {
    const res = await browser.request(authorizeUrl({ baseUrl: base, clientId, redirectUri: TRUSTED, server: 'crm', challenge }, { ...extra, state: 'st-1' }));
    t.equal(res.status, 302, `${label}: redirected`);
    const location = new URL(res.headers.get('location') ?? '');
    t.equal(`${location.origin}${location.pathname}`, TRUSTED, `${label}: to the approved client`);
    t.ok(location.searchParams.get('error'), `${label}: with the error`);
    t.equal(location.searchParams.get('state'), 'st-1');
    t.equal(location.searchParams.get('iss'), base, `${label}: and the issuer (RFC 9207)`);
  }
  const unregistered = await browser.request(authorizeUrl({ baseUrl: base, clientId, redirectUri: 'https://attacker.example/cb', server: 'crm', challenge }));
  t.equal(unregistered.status, 400, 'an unregistered redirect URI is never followed, approved client or not');
  t.equal(unregistered.headers.get('location'), null);
});

t.test('a client its publisher approved for themselves redirects nobody else', async (t) => {
  const publisher = await stack.bootstrap({ email: `publisher-${Date.now()}@example.test` });
  const clientId = await registerClient(base, ATTACKER, 'Approved by its publisher');
  const { browser: publisherBrowser } = await authorizeWithForms({ baseUrl: base, clientId, redirectUri: ATTACKER, server: 'crm', email: publisher.user.email, password: TEST_PASSWORD, challenge: pkce().challenge });
  // The victim is signed in here, with grants to other clients only.
  const { browser: victim } = await authorizeWithForms({ baseUrl: base, clientId: await registerClient(base, TRUSTED, 'Another agent'), redirectUri: TRUSTED, server: 'crm', email: user.email, password: TEST_PASSWORD, challenge: pkce().challenge });
  const noPkce = () => {
    const url = new URL(authorizeUrl({ baseUrl: base, clientId, redirectUri: ATTACKER, server: 'crm', challenge: '' }));
    url.searchParams.delete('code_challenge');
    return url.href;
  };

  for (const [label, res] of [
    ['a visitor not signed in', await fetch(noPkce(), { redirect: 'manual' })],
    ['a signed-in user who never approved it', await victim.request(noPkce())],
    ['a session cookie no session has', await fetch(noPkce(), { redirect: 'manual', headers: { cookie: `__Host-crm_session=${'x'.repeat(43)}; crm_session=${'x'.repeat(43)}` } })],
    ['a session cookie too long to be one', await fetch(noPkce(), { redirect: 'manual', headers: { cookie: `__Host-crm_session=${'x'.repeat(600)}; crm_session=${'x'.repeat(600)}` } })],
  ] as const) {
    t.equal(res.status, 400, `${label}: 400`);
    t.equal(res.headers.get('location'), null, `${label}: not sent to ${ATTACKER}`);
    t.match(await res.text(), /cannot go on/, `${label}: our own page`);
  }
  const own = await publisherBrowser.request(noPkce());
  t.equal(own.status, 302, 'the publisher, who approved it, hears its errors at the client');
  t.equal(new URL(own.headers.get('location') ?? '').origin, new URL(ATTACKER).origin);

  await stack.db.query("update oauth_grants set revoked_at = now(), revoked_reason = 'revoked by its user' where client_id = $1", [clientId]);
  t.equal((await publisherBrowser.request(noPkce())).status, 302, 'a grant they had counts too (removing a server revokes it)');
});

t.test(`registrations nobody approved are purged after ${UNUSED_CLIENT_DAYS} days`, async (t) => {
  const stale = await registerClient(base, ATTACKER, 'Stale');
  const recent = await registerClient(base, ATTACKER, 'Recent');
  const used = await registerClient(base, TRUSTED, 'Used long ago');
  await authorizeWithForms({ baseUrl: base, clientId: used, redirectUri: TRUSTED, server: 'crm', email: user.email, password: TEST_PASSWORD, challenge: pkce().challenge });
  await stack.db.query(`update oauth_clients set created_at = now() - interval '${UNUSED_CLIENT_DAYS + 1} days' where id = any($1)`, [[stale, used]]);
  await stack.db.query(`update oauth_clients set created_at = now() - interval '${UNUSED_CLIENT_DAYS - 1} days' where id = $1`, [recent]);

  // The tokens worker runs this every 10 minutes; here it runs once, on the stack's database.
  const orm = await openDatabase({ url: stack.env.DATABASE_URL ?? '', poolMax: 1, applicationName: 'purge test' });
  t.teardown(() => orm.close());
  await purgeExpiredIdentityRecords(orm.em.fork());
  const left = await stack.db.query<{ id: string }>('select id from oauth_clients where id = any($1)', [[stale, recent, used]]);
  t.same(left.map((r) => r.id).sort(), [recent, used].sort(), 'only the stale, never-approved registration is gone');
  const gone = await fetch(authorizeUrl({ baseUrl: base, clientId: stale, redirectUri: ATTACKER, server: 'crm', challenge: pkce().challenge }), { redirect: 'manual' });
  t.equal(gone.status, 400, 'its client_id is unknown now');
});

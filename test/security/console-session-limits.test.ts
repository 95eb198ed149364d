import { randomBytes } from 'node:crypto';
import t from 'tap';
import { cookiePolicy } from '../../gateway/pages/cookies.js';
import { sessionMemberships } from '../../shared/contracts/sessions.js';
import { countBusCalls } from '../helpers/bus-call-counter.js';
import { signInToConsole } from '../helpers/console-forms.js';
import { client } from '../helpers/http.js';
import { FormBrowser } from '../helpers/oauth-forms.js';
import { startStack, TEST_PASSWORD } from '../helpers/stack.js';

/**
 * The console's own limits: requests per signed-in user (a script looping on a session
 * cookie), and unknown session cookies per client address, which before cost a lookup
 * each with no limit. The sessions subject is watched on the real NATS to count lookups.
 */
const SESSION_LIMIT = 8;
const FAILED_AUTH_LIMIT = 5;
const stack = await startStack({
  env: { RATE_LIMIT_SESSION_PER_MINUTE: String(SESSION_LIMIT), RATE_LIMIT_FAILED_AUTH_PER_MINUTE: String(FAILED_AUTH_LIMIT), TRUST_PROXY: '1' },
});
t.teardown(() => stack.stop());

const sessionLookups = await countBusCalls(t, stack, sessionMemberships);

/** Limits count per clock minute: start a scenario early in one, so that it ends in the same one. */
async function freshWindow(): Promise<void> {
  const into = Date.now() % 60_000;
  if (into > 40_000) await new Promise((r) => setTimeout(r, 60_000 - into + 200));
}

t.test('a signed-in user gets their limit of console requests a minute, then the 429 page; another user is not affected', async (t) => {
  const first = await stack.bootstrap({ email: 'looping@console-limits.test' });
  const second = await stack.bootstrap({ email: 'calm@console-limits.test' });
  const api = client(stack.baseUrl, await stack.token(first.workspace.id, ['contacts:write']));
  const contact = (await api.post<{ id: string }>('/v1/contacts', { name: 'Ada Lovelace' })).body.id;
  await freshWindow();
  // Signing in ends on one console page, the first request counted.
  const looping = await signInToConsole(stack.baseUrl, first.workspace.id, first.user.email, TEST_PASSWORD);
  const pages = `${stack.baseUrl}/console/w/${first.workspace.id}`;
  const statuses: number[] = [];
  for (let i = 1; i < SESSION_LIMIT; i++) statuses.push((await looping.browser.request(`${pages}/contacts`)).status);
  t.same(statuses, Array(SESSION_LIMIT - 1).fill(200), 'up to the limit, pages are served');

  const refused = await looping.browser.request(`${pages}/contacts`);
  t.equal(refused.status, 429, 'one more is a 429');
  t.ok(Number(refused.headers.get('retry-after')) >= 1, 'with Retry-After');
  t.equal(refused.headers.get('ratelimit-limit'), String(SESSION_LIMIT));
  const page = await refused.text();
  t.match(page, /Too many requests/, 'a page that says what happened');
  t.match(page, /Retry after \d+ seconds/);
  t.equal((await looping.post(`/contacts/${contact}/notes`, { body: 'Not stored' })).status, 429, 'form posts are counted too');
  t.same(await stack.db.query('select id from notes where contact_id = $1', [contact]), [], 'and the refused post changed nothing');

  const calm = await signInToConsole(stack.baseUrl, second.workspace.id, second.user.email, TEST_PASSWORD);
  t.equal((await calm.browser.request(`${stack.baseUrl}/console/w/${second.workspace.id}/contacts`)).status, 200, 'another user has their own count');
});

t.test('unknown session cookies from one address go to sign-in until its limit, then 429 without a lookup', async (t) => {
  await freshWindow();
  const visit = (ip: string) => {
    const browser = new FormBrowser();
    browser.setCookie(cookiePolicy(stack.baseUrl).session, randomBytes(32).toString('base64url'));
    return browser.request(`${stack.baseUrl}/console`, { headers: { 'x-forwarded-for': ip } });
  };
  const guesser = '203.0.113.70';
  const counted = await sessionLookups.during(async () => {
    for (let i = 0; i < FAILED_AUTH_LIMIT; i++) {
      const res = await visit(guesser);
      t.equal(res.status, 303, `unknown cookie ${i + 1} is sent to sign-in`);
      t.match(res.headers.get('location'), /^\/sign-in/);
    }
    const limited = await visit(guesser);
    t.equal(limited.status, 429, 'past the limit, a 429');
    t.ok(Number(limited.headers.get('retry-after')) >= 1, 'with Retry-After');
  });
  t.equal(counted, FAILED_AUTH_LIMIT + 1, 'each refused cookie up to the one over the limit was looked up');

  const flooded = await sessionLookups.during(async () => {
    const flood = await Promise.all(Array.from({ length: 30 }, () => visit(guesser)));
    t.same([...new Set(flood.map((r) => r.status))], [429], 'the flood is all 429s');
  });
  t.equal(flooded, 0, 'and cost no lookup at all');

  t.equal((await visit('203.0.113.71')).status, 303, 'another address is still sent to sign-in');
  const member = await stack.bootstrap({ email: 'shared-office@console-limits.test' });
  const signedIn = await signInToConsole(stack.baseUrl, member.workspace.id, member.user.email, TEST_PASSWORD);
  const page = await signedIn.browser.request(`${stack.baseUrl}/console/w/${member.workspace.id}/contacts`, { headers: { 'x-forwarded-for': guesser } });
  t.equal(page.status, 200, 'a member already signed in keeps working from the blocked address');

  // Signed out, the cookie no longer passes the block: before, it did for five minutes, a lookup each time.
  const sessionCookie = cookiePolicy(stack.baseUrl).session;
  const signedOutCookie = signedIn.browser.cookie(sessionCookie) ?? '';
  const consolePage = await (await signedIn.browser.request(`${stack.baseUrl}/console/w/${member.workspace.id}/contacts`)).text();
  const csrf = /name="csrf_token" value="([^"]+)"/.exec(consolePage)?.[1] ?? '';
  t.equal((await signedIn.browser.postForm(`${stack.baseUrl}/sign-out`, { csrf_token: csrf })).status, 200, 'signed out');
  const stale = new FormBrowser();
  stale.setCookie(sessionCookie, signedOutCookie);
  const afterSignOut = await sessionLookups.during(async () => {
    for (let i = 0; i < 3; i++) {
      const res = await stale.request(`${stack.baseUrl}/console`, { headers: { 'x-forwarded-for': guesser } });
      t.equal(res.status, 429, `the signed-out cookie is refused (${i + 1})`);
    }
  });
  t.equal(afterSignOut, 1, 'looked up once, then refused at the block like any unknown cookie (before: a lookup each time)');
  t.notMatch(await stack.allOutput(), /crm_session=/, 'no session cookie in any log');
});

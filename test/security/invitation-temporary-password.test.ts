import t from 'tap';
import { signInToConsole, type ConsoleForms } from '../helpers/console-forms.js';
import { field, FormBrowser } from '../helpers/oauth-forms.js';
import { useStack } from '../helpers/shared-stack.js';
import { TEST_PASSWORD } from '../helpers/stack.js';

/**
 * Whoever invited a new user knows their temporary password until the user chooses their own.
 * Another organization adding that user must not open its workspace to that person: before,
 * the invitation just added the membership ("they sign in with their own password"), and the
 * first inviter signed in with the temporary password, chose a password and read the other
 * organization's workspace.
 */
const stack = await useStack(t);
const base = stack.baseUrl;
const orgA = await stack.bootstrap();
const orgB = await stack.bootstrap();
const adminA = await signInToConsole(base, orgA.workspace.id, orgA.user.email, TEST_PASSWORD);
const adminB = await signInToConsole(base, orgB.workspace.id, orgB.user.email, TEST_PASSWORD);
const suffix = Date.now();

async function invite(forms: ConsoleForms, email: string): Promise<{ status: number; temporary: string | null; page: string }> {
  const res = await forms.post('/members', { email, permissions: ['contacts.read'], visibility: 'all' });
  const page = await res.text();
  return { status: res.status, temporary: /<pre id="temporary-password"[^>]*>([^<]+)<\/pre>/.exec(page)?.[1] ?? null, page };
}

/** Whether the sign-in form takes this password (a 303 onwards, rather than the form again). */
async function signsIn(email: string, password: string, browser = new FormBrowser()): Promise<boolean> {
  const start = await browser.request(`${base}/console`);
  const page = await (await browser.request(`${base}${start.headers.get('location') ?? ''}`)).text();
  const res = await browser.postForm(`${base}/sign-in`, { csrf_token: field(page, 'csrf_token'), next: field(page, 'next').replace(/&amp;/g, '&'), email, password });
  return res.status === 303;
}

const membershipsOf = async (email: string) =>
  (await stack.db.query<{ workspace_id: string }>('select m.workspace_id from memberships m join users u on u.id = m.user_id where u.email = $1', [email])).map((r) => r.workspace_id);

t.test("another organization cannot add a user whose temporary password someone else holds", async (t) => {
  const email = `held-${suffix}@example.test`;
  const first = await invite(adminA, email);
  t.equal(first.status, 200);
  t.ok(first.temporary, 'organization A sees the temporary password');

  const second = await invite(adminB, email);
  t.equal(second.status, 409, 'organization B is told, not given a membership that A could sign in to');
  t.match(second.page, /has not chosen a password yet/);
  t.same(await membershipsOf(email), [orgA.workspace.id], 'no membership in B');
});

t.test('another workspace of the same organization adds them as before', async (t) => {
  const email = `same-org-${suffix}@example.test`;
  t.ok((await invite(adminA, email)).temporary);
  const sibling = await stack.bootstrap({ org: orgA.organization.name, email: orgA.user.email });
  const siblingAdmin = await signInToConsole(base, sibling.workspace.id, orgA.user.email, TEST_PASSWORD);
  const added = await invite(siblingAdmin, email);
  t.equal(added.status, 200);
  t.equal(added.temporary, null, 'no new password: the first one still holds');
  t.match(added.page, /has not signed in yet: they sign in with the temporary password of their first invitation/, 'and the page says so, not "their own password"');
  t.same((await membershipsOf(email)).sort(), [orgA.workspace.id, sibling.workspace.id].sort());
});

t.test('a user who is a member nowhere gets a new temporary password, and the old one stops working', async (t) => {
  const email = `left-${suffix}@example.test`;
  const first = await invite(adminA, email);
  const old = first.temporary ?? '';
  t.ok(old);
  const [userId] = (await stack.db.query<{ id: string }>('select id from users where email = $1', [email])).map((r) => r.id);
  t.equal((await adminA.post(`/members/${userId}/remove`, {})).status, 303, 'A removes them again');
  const signedIn = new FormBrowser();
  t.ok(await signsIn(email, old, signedIn), 'the old temporary password still signs in while nobody else added them');

  const second = await invite(adminB, email);
  t.equal(second.status, 200);
  t.ok(second.temporary, 'B gets a temporary password of its own');
  t.not(second.temporary, old);
  t.notOk(await signsIn(email, old), "A's temporary password no longer signs in");
  t.match((await signedIn.request(`${base}/console/account`)).headers.get('location'), /^\/sign-in/, 'the session it opened has ended');
  t.ok(await signsIn(email, second.temporary ?? ''), "B's does");
});

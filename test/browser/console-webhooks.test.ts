import type { Page } from 'playwright-core';
import t from 'tap';
import { collectCspViolations, launchBrowser } from '../helpers/browser.js';
import { check, shownText, signIn } from '../helpers/console-pages.js';
import { MAX_WEBHOOK_ENDPOINTS } from '../../shared/contracts/webhooks.js';
import { client } from '../helpers/http.js';
import { startStack, TEST_PASSWORD } from '../helpers/stack.js';
import { receiversClosedWith, type ReceivedWebhook } from '../helpers/webhook-receiver.js';

/**
 * The console's Webhooks pages in real headless Chromium, against receivers on 127.0.0.1
 * that verify every delivery with the `standardwebhooks` library. The stack is this file's
 * own: the shared one refuses private addresses, as production does.
 */
const stack = await startStack({ env: { WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true', WEBHOOK_TIMEOUT: '2s' } });
t.teardown(() => stack.stop());
const base = stack.baseUrl;
const admin = await stack.bootstrap({ org: 'Hooli', workspace: 'Sales', email: 'ada@hooli.test', defaultCountry: 'US' });
await stack.addMember(admin.workspace.id, 'rep@hooli.test', ['contacts.write', 'deals.read'], 'all');
const ws = `/console/w/${admin.workspace.id}`;

const receiver = receiversClosedWith(t);

const browser = await launchBrowser();
t.teardown(() => browser.close());
const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
const page = await context.newPage();
const cspReports: string[] = [];
collectCspViolations(page, cspReports);
/** Every secret the pages showed: none may appear in a log or a URL. */
const secretsShown: string[] = [];
const urlsVisited: string[] = [];
page.on('framenavigated', (frame) => urlsVisited.push(frame.url()));

/** Fills the "Add an endpoint" form on the Webhooks page and submits it. */
async function addEndpoint(p: Page, fields: { url: string; description?: string; types?: string[] }): Promise<void> {
  await p.getByLabel('URL', { exact: true }).fill(fields.url);
  await p.getByLabel('Description (optional)').fill(fields.description ?? '');
  if (fields.types) {
    await p.getByLabel('Only the types ticked below').check();
    for (const type of fields.types) await p.getByLabel(type, { exact: true }).check();
  } else {
    await p.getByLabel('All events, including types added later').check();
  }
  await p.getByRole('button', { name: 'Add endpoint' }).click();
  await p.getByRole('heading', { level: 1 }).waitFor();
}

/** The secret on the page that shows it once, kept for the log check. */
async function secretOnPage(p: Page): Promise<string> {
  const secret = await shownText(p, 'webhook-secret');
  secretsShown.push(secret);
  return secret;
}

/** The endpoint page's newest delivery row, once `done` holds for it (reloading meanwhile). */
async function newestDelivery(p: Page, done: (row: { outcome: string; attempts: string[] }) => boolean): Promise<{ outcome: string; attempts: string[] }> {
  const until = Date.now() + 15_000;
  for (;;) {
    const row = p.locator('table.deliveries tbody tr').first();
    if ((await row.count()) > 0) {
      const current = {
        outcome: (await row.locator('td[data-column="status"]').innerText()).trim(),
        attempts: (await row.locator('td[data-column="attempts"] li').allInnerTexts()).map((a) => a.trim()),
      };
      if (done(current)) return current;
      if (Date.now() > until) throw new Error(`the newest delivery did not settle: ${JSON.stringify(current)}`);
    } else if (Date.now() > until) throw new Error('no delivery listed');
    await new Promise((r) => setTimeout(r, 200));
    await p.reload();
  }
}

async function clickAndSee(p: Page, button: string, text: string | RegExp): Promise<void> {
  await p.getByRole('button', { name: button, exact: true }).click();
  await p.getByText(text).first().waitFor();
}

let endpointPath = '';
let firstSecret = '';
const hook = await receiver();

/** The test events a receiver got (the endpoint also receives the workspace's real events). */
const isTest = (r: ReceivedWebhook): boolean => r.event.type === 'webhook_endpoint.test';

t.test('an administrator adds an endpoint; a refused URL is answered on the form; the secret is shown once', async (t) => {
  await signIn(page, base, 'ada@hooli.test', TEST_PASSWORD);
  await page.getByRole('navigation', { name: 'Console sections' }).getByRole('link', { name: 'Webhooks', exact: true }).click();
  await page.getByRole('heading', { name: 'Webhooks', level: 1 }).waitFor();
  t.equal(new URL(page.url()).pathname, `${ws}/webhooks`);
  t.match(await page.locator('main').innerText(), /No endpoints yet\./);

  await addEndpoint(page, { url: 'ftp://example.com/hook', description: 'Billing <b>sync</b>', types: ['contact.created', 'deal.stage_changed'] });
  t.match(await page.getByRole('alert').innerText(), /^URL: must be an absolute https URL/, 'the operation’s refusal, on the form, naming the field by its label');
  t.equal(await page.getByLabel('URL', { exact: true }).getAttribute('aria-invalid'), 'true', 'the URL is marked as the field refused');
  t.match(await page.getByLabel('URL', { exact: true }).getAttribute('aria-describedby'), /^create-error /, 'with the reason as its description');
  t.equal(await page.getByLabel('URL', { exact: true }).inputValue(), 'ftp://example.com/hook', 'what was typed is kept');
  t.equal(await page.getByLabel('Description (optional)').inputValue(), 'Billing <b>sync</b>');
  t.ok(await page.getByLabel('Only the types ticked below').isChecked());
  t.ok(await page.getByLabel('contact.created', { exact: true }).isChecked());
  t.ok(await page.getByLabel('deal.stage_changed', { exact: true }).isChecked());
  t.notOk(await page.getByLabel('contact.updated', { exact: true }).isChecked());
  await check(t, page, 'console-webhooks-error');

  await page.getByLabel('contact.created', { exact: true }).uncheck();
  await page.getByLabel('deal.stage_changed', { exact: true }).uncheck();
  await addEndpoint(page, { url: hook.url, description: '<img src=x id=injected> Billing', types: [] });
  t.match(await page.getByRole('alert').innerText(), /^Events to send: at least one event type/, 'choosing types and ticking none');

  await addEndpoint(page, { url: hook.url, description: '<img src=x id=injected> Billing' });
  t.equal(await page.getByRole('heading', { level: 1 }).innerText(), 'Webhook endpoint added');
  firstSecret = await secretOnPage(page);
  t.match(firstSecret, /^whsec_[A-Za-z0-9+/=]+$/, 'the whsec_ secret');
  hook.secret = firstSecret;
  endpointPath = new URL(page.url()).pathname;
  t.match(endpointPath, new RegExp(`^${ws}/webhooks/we_`), 'the address bar shows the endpoint’s page, not the POST');
  await check(t, page, 'console-webhook-created');

  await page.reload();
  await page.getByRole('heading', { name: `Webhook endpoint ${hook.url}`, level: 1 }).waitFor();
  t.notOk((await page.content()).includes(firstSecret.slice('whsec_'.length)), 'a reload does not show it');
  t.equal(await page.locator('#webhook-secret').count(), 0);
  t.equal(await page.locator('#injected').count(), 0, 'the description is text');
  t.match(await page.locator('dl.facts').innerText(), /<img src=x id=injected> Billing[\s\S]*All events[\s\S]*Enabled/);
});

t.test('"Send test event" reaches the receiver, signed with that secret', async (t) => {
  await clickAndSee(page, 'Send test event', 'A test event was sent.');
  // Real events reach the endpoint too (its own creation, for one): look at the test events.
  const [received] = await hook.waitFor(1, isTest);
  t.equal(received?.event.type, 'webhook_endpoint.test');
  t.ok(received?.verified, 'verified with the secret shown once');
  const delivery = await newestDelivery(page, (d) => d.outcome.startsWith('Succeeded'));
  t.match(delivery.outcome, /^Succeeded \(HTTP 200\)/);
  t.equal(delivery.attempts.length, 1);
  t.match(delivery.attempts[0], /UTC: HTTP 200, \d+ ms$/, 'the attempt: time, status, latency');
  t.match(await page.locator('table.deliveries tbody tr').first().locator('td[data-column="event"]').innerText(), /webhook_endpoint\.test/);
  await check(t, page, 'console-webhook-endpoint');
});

t.test('rotating the secret shows the new one once; the old one no longer verifies', async (t) => {
  await page.getByRole('link', { name: 'Rotate secret' }).click();
  await page.getByRole('heading', { name: `Rotate the signing secret of ${hook.url}?` }).waitFor();
  await check(t, page, 'console-webhook-rotate');
  await page.getByRole('button', { name: 'Rotate secret' }).click();
  await page.getByRole('heading', { name: 'Signing secret rotated', level: 1 }).waitFor();
  const rotated = await secretOnPage(page);
  t.match(rotated, /^whsec_/);
  t.not(rotated, firstSecret, 'a new secret');
  t.equal(new URL(page.url()).pathname, endpointPath);

  await page.getByRole('link', { name: 'Go to the endpoint' }).click();
  t.match(await page.locator('dl.facts').innerText(), /Signing secret\s+Rotated/);
  await clickAndSee(page, 'Send test event', 'A test event was sent.');
  t.equal((await hook.waitFor(2, isTest))[1]?.verified, false, 'the old secret no longer verifies');
  hook.secret = rotated;
  await clickAndSee(page, 'Send test event', 'A test event was sent.');
  t.ok((await hook.waitFor(3, isTest))[2]?.verified, 'the new one does');
});

t.test('rotating with the old secret kept for 24 hours: a receiver on either secret verifies', async (t) => {
  await page.getByRole('link', { name: 'Rotate secret' }).click();
  await page.getByLabel('The current secret keeps signing for').selectOption({ label: '24 hours' });
  await page.getByRole('button', { name: 'Rotate secret' }).click();
  await page.getByRole('heading', { name: 'Signing secret rotated', level: 1 }).waitFor();
  // Before, this page said the previous secret no longer verified deliveries, even when it was kept.
  const said = await page.locator('main').innerText();
  t.match(said, /with the previous secret too until \d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC/, 'the page says until when the previous secret signs');
  t.notMatch(said, /no longer verifies/);
  const next = await secretOnPage(page);
  await page.getByRole('link', { name: 'Go to the endpoint' }).click();
  t.match(await page.locator('dl.facts').innerText(), /the previous secret also signs until/);
  await clickAndSee(page, 'Send test event', 'A test event was sent.');
  t.ok((await hook.waitFor(4, isTest))[3]?.verified, 'the receiver not yet switched still verifies');
  hook.secret = next;
  await clickAndSee(page, 'Send test event', 'A test event was sent.');
  t.ok((await hook.waitFor(5, isTest))[4]?.verified, 'and once switched, with the new one');
});

t.test('a failing receiver’s delivery shows its attempts, and Retry sends it again', async (t) => {
  const flaky = await receiver((n) => (n === 0 ? 503 : 200));
  await page.goto(`${base}${ws}/webhooks`);
  await addEndpoint(page, { url: flaky.url, types: ['contact.created', 'deal.stage_changed'] });
  flaky.secret = await secretOnPage(page);
  await page.getByRole('link', { name: 'Go to the endpoint' }).click();
  t.match(await page.locator('dl.facts').innerText(), /contact\.created\s+deal\.stage_changed/);

  await clickAndSee(page, 'Send test event', 'A test event was sent.');
  const failed = await newestDelivery(page, (d) => d.outcome.startsWith('Failed'));
  t.match(failed.outcome, /^Failed \(HTTP 503\)/);
  t.equal(failed.attempts.length, 1);
  t.match(failed.attempts[0], /HTTP 503, \d+ ms \(.+\)$/, 'the attempt with its error');
  const retry = page.locator('table.deliveries tbody tr').first().getByRole('button', { name: /^Retry delivery msg_/ });
  t.equal(await retry.count(), 1, 'a Retry button on the failed delivery');
  await check(t, page, 'console-webhook-failed-delivery');

  await retry.click();
  await page.getByText('The delivery is being sent again.').waitFor();
  const retried = await newestDelivery(page, (d) => d.outcome.startsWith('Succeeded'));
  t.equal(retried.attempts.length, 2, 'both attempts, oldest first');
  t.match(retried.attempts[0], /HTTP 503/);
  t.match(retried.attempts[1], /HTTP 200/);
  const tests = await flaky.waitFor(2, isTest);
  t.ok(tests[1]?.verified, 'the retry is signed too');
  t.equal(tests[1]?.id, tests[0]?.id, 'the same delivery (webhook-id) again');
  t.equal(await page.locator('table.deliveries tbody tr').first().getByRole('button', { name: /^Retry/ }).count(), 0, 'no Retry once it succeeded');
});

t.test('a delivery waiting for its next attempt (a minute away) is sent now with "Send now"', async (t) => {
  // Before, only a failed delivery had a button: one whose receiver had just been fixed waited
  // for its next scheduled attempt (up to 8 hours), though the API sends a pending one at once.
  const recovering = await receiver((n) => (n === 0 ? 503 : 200));
  await page.goto(`${base}${ws}/webhooks`);
  await addEndpoint(page, { url: recovering.url, types: ['contact.created'] });
  recovering.secret = await secretOnPage(page);
  await page.getByRole('link', { name: 'Go to the endpoint' }).click();
  const api = client(base, await stack.token(admin.workspace.id, ['contacts:write']));
  t.equal((await api.post('/v1/contacts', { first_name: 'Later', phone: '+1 415 555 0177' })).status, 201);
  const waiting = await newestDelivery(page, (d) => d.outcome.startsWith('Pending') && d.attempts.length === 1);
  t.match(waiting.attempts[0], /HTTP 503/);
  const sendNow = page.locator('table.deliveries tbody tr').first().getByRole('button', { name: /^Send delivery msg_\S+ now$/ });
  t.equal(await sendNow.count(), 1, 'a Send now button on the pending delivery');
  await sendNow.click();
  await page.getByText('The delivery is being sent again.').waitFor();
  const sent = await newestDelivery(page, (d) => d.outcome.startsWith('Succeeded'));
  t.equal(sent.attempts.length, 2, 'sent now, not a minute later');
  const received = await recovering.waitFor(2);
  t.ok(received[1]?.verified, 'signed');
});

t.test('disable and enable', async (t) => {
  await page.goto(`${base}${endpointPath}`);
  await clickAndSee(page, 'Disable', 'The endpoint is disabled');
  t.match(await page.locator('dd[data-fact="status"]').innerText(), /^Disabled/);
  t.equal(await page.getByRole('button', { name: 'Send test event' }).count(), 0, 'nothing to send to a disabled endpoint');
  await check(t, page, 'console-webhook-disabled');

  // A test event posted anyway is refused by the operation, and the page says why.
  const csrf = await page.locator('input[name=csrf_token]').first().inputValue();
  const refused = await page.request.post(`${base}${endpointPath}/test`, { form: { csrf_token: csrf }, maxRedirects: 0 });
  t.equal(refused.status(), 409);
  t.match(await refused.text(), /The endpoint is disabled and receives nothing: enable it first\./);

  await page.goto(`${base}${ws}/webhooks`);
  const row = page.locator('table.webhook-endpoints tbody tr', { hasText: hook.url });
  t.equal((await row.locator('td[data-column="status"]').innerText()).trim(), 'Disabled', 'the list says so');
  t.match(await row.locator('td[data-column="last-delivery"]').innerText(), /^Succeeded \(HTTP 200\)/, 'with its last delivery');
  t.match(await row.locator('td[data-column="events"]').innerText(), /All events/);
  t.equal(await page.locator('#injected').count(), 0);
  await check(t, page, 'console-webhooks');

  await row.getByRole('link', { name: hook.url }).click();
  await clickAndSee(page, 'Enable', 'The endpoint is enabled again.');
  t.match(await page.locator('dd[data-fact="status"]').innerText(), /^Enabled/);
  t.equal(await page.getByRole('button', { name: 'Send test event' }).count(), 1);
});

t.test('more than a page of endpoints: on to the next page and back to the first', async (t) => {
  // A workspace of its own, so its 51 endpoints receive none of the other tests' events.
  const other = await stack.bootstrap({ org: 'Hooli', workspace: 'Many hooks', email: 'ada@hooli.test' });
  const api = client(base, await stack.token(other.workspace.id, ['webhooks:write', 'events:read', 'schema:read']));
  for (let i = 1; i <= MAX_WEBHOOK_ENDPOINTS; i++) {
    const res = await api.post('/v1/webhook-endpoints', { url: `${hook.url}?n=${i}`, enabled_events: ['pipeline.created'] });
    if (res.status !== 201) t.fail(`endpoint ${i}: ${res.status} ${JSON.stringify(res.body)}`);
  }
  // The rest past the API's limit, as a workspace made before there was one holds them: copies of the last, each a millisecond later.
  await stack.db.query(
    `insert into webhook_endpoints (id, workspace_id, url, description, enabled_events, status, secret_encrypted, secret_rotated_at, created_at, updated_at, failing_since)
     select e.id || '_' || n, e.workspace_id, e.url || '&copy=' || n, e.description, e.enabled_events, e.status, e.secret_encrypted, null, e.created_at + n * interval '1 millisecond', e.updated_at, null
     from (select * from webhook_endpoints where workspace_id = $1 order by created_at desc, id desc limit 1) e, generate_series(1, $2::int) n`,
    [other.workspace.id, 51 - MAX_WEBHOOK_ENDPOINTS],
  );
  const list = `/console/w/${other.workspace.id}/webhooks`;
  await page.goto(`${base}${list}`);
  const pager = page.getByRole('navigation', { name: 'Pages' });
  t.equal(await pager.getByRole('link', { name: 'First page' }).count(), 0, 'no way back from the first page');
  await pager.getByRole('link', { name: 'More endpoints' }).click();
  await page.waitForURL((url) => url.searchParams.has('cursor'));
  t.equal(await page.locator('table.webhook-endpoints tbody tr').count(), 1, 'the 51st');
  t.equal(await pager.getByRole('link', { name: 'More endpoints' }).count(), 0, 'and no further');
  await pager.getByRole('link', { name: 'First page' }).click();
  await page.waitForURL((url) => !url.searchParams.has('cursor'));
  t.equal(await page.locator('table.webhook-endpoints tbody tr').count(), 50, 'back on the first page');
});

t.test('a member without Configuration gets no Webhooks section and a 403 for every page and action', async (t) => {
  const repContext = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  t.teardown(() => repContext.close());
  const rep = await repContext.newPage();
  await signIn(rep, base, 'rep@hooli.test', TEST_PASSWORD);
  t.notMatch(await rep.getByRole('navigation', { name: 'Console sections' }).innerText(), /Webhooks/, 'no nav entry');
  for (const path of ['/webhooks', endpointPath.slice(ws.length), `${endpointPath.slice(ws.length)}/rotate-secret`, `${endpointPath.slice(ws.length)}/delete`]) {
    t.equal((await rep.goto(`${base}${ws}${path}`))?.status(), 403, `GET ${path}: 403`);
  }
  t.match(await rep.getByRole('alert').innerText(), /Configuration permission/);
  await check(t, rep, 'console-webhooks-forbidden');

  await rep.goto(`${base}${ws}/connect`);
  const csrf = await rep.locator('input[name=csrf_token]').first().inputValue();
  const endpoint = endpointPath.slice(ws.length);
  const attempts: [string, Record<string, string>][] = [
    ['/webhooks', { url: 'https://example.com/hook', events_scope: 'all' }],
    [`${endpoint}/test`, {}],
    [`${endpoint}/status`, { status: 'disabled' }],
    [`${endpoint}/rotate-secret`, {}],
    [`${endpoint}/delete`, {}],
    [`${endpoint}/deliveries/msg_nope/retry`, {}],
  ];
  for (const [path, form] of attempts) {
    const res = await rep.request.post(`${base}${ws}${path}`, { form: { csrf_token: csrf, ...form }, maxRedirects: 0 });
    t.equal(res.status(), 403, `POST ${path}: 403`);
    t.notMatch(await res.text(), /whsec_/, 'and no secret');
  }
  await page.goto(`${base}${endpointPath}`);
  t.match(await page.locator('dd[data-fact="status"]').innerText(), /^Enabled/, 'the endpoint is untouched');
});

t.test('the pages: security headers, no inline script, CSRF on every form that posts', async (t) => {
  const cookies = (await context.cookies(base)).map((c) => `${c.name}=${c.value}`).join('; ');
  for (const path of ['/webhooks', endpointPath.slice(ws.length), `${endpointPath.slice(ws.length)}/rotate-secret`, `${endpointPath.slice(ws.length)}/delete`]) {
    const res = await fetch(`${base}${ws}${path}`, { headers: { cookie: cookies }, redirect: 'manual' });
    t.equal(res.status, 200, `${path}: 200`);
    t.match(res.headers.get('content-security-policy') ?? '', /script-src 'self'/);
    t.equal(res.headers.get('cache-control'), 'no-store');
    const body = await res.text();
    t.notMatch(body, /<script(?![^>]*\bsrc=)/, 'no inline script');
    t.notMatch(body, /\son[a-z]+="/, 'no inline event handlers');
    t.notMatch(body, /whsec_/, 'no secret');
    const posts = body.match(/<form method="post"/g)?.length ?? 0;
    t.ok(posts >= 1);
    t.equal(body.match(/name="csrf_token"/g)?.length ?? 0, posts, 'every form that posts carries the CSRF token');
  }
  const forged = await page.request.post(`${base}${endpointPath}/rotate-secret`, { form: { csrf_token: 'forged' }, maxRedirects: 0 });
  t.equal(forged.status(), 403, 'a POST without the right CSRF token is refused');
  t.notMatch(await forged.text(), /whsec_/);
  t.same(cspReports, [], 'no CSP violation');
});

t.test('delete, after a confirmation', async (t) => {
  await page.goto(`${base}${endpointPath}`);
  await page.getByRole('link', { name: 'Delete' }).click();
  await page.getByRole('heading', { name: `Delete the endpoint ${hook.url}?` }).waitFor();
  await check(t, page, 'console-webhook-delete');
  await page.getByRole('link', { name: 'Cancel' }).click();
  t.equal(new URL(page.url()).pathname, endpointPath, 'Cancel goes back');
  await page.getByRole('link', { name: 'Delete' }).click();
  await page.getByRole('button', { name: 'Delete endpoint' }).click();
  await page.getByText('The endpoint was deleted').waitFor();
  t.equal(new URL(page.url()).pathname, `${ws}/webhooks`);
  t.equal(await page.locator('table.webhook-endpoints tbody tr', { hasText: hook.url }).count(), 0, 'gone from the list');
  t.equal((await page.goto(`${base}${endpointPath}`))?.status(), 404, 'its page is a 404');
  const before = hook.received.length;
  await new Promise((r) => setTimeout(r, 300));
  t.equal(hook.received.length, before);
});

t.test('no secret in any log or URL', async (t) => {
  t.ok(secretsShown.length >= 3);
  const output = await stack.allOutput();
  for (const secret of secretsShown) {
    t.notOk(output.includes(secret), 'not in the service’s output');
    t.notOk(output.includes(secret.slice('whsec_'.length)), 'not even without its prefix');
    t.notOk(urlsVisited.some((url) => url.includes(secret.slice('whsec_'.length, 20))), 'not in any URL the browser visited');
  }
});

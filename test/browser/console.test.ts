import t from 'tap';
import { SCOPES } from '../../shared/auth/scopes.js';
import { collectCspViolations, launchBrowser } from '../helpers/browser.js';
import { check, clipboard, shownText, signIn, submit } from '../helpers/console-pages.js';
import { client } from '../helpers/http.js';
import { useStack } from '../helpers/shared-stack.js';
import { TEST_PASSWORD } from '../helpers/stack.js';

/**
 * The admin console in real headless Chromium, under the pages' own CSP: an
 * administrator's round (tokens, data, agents' configuration, signing out), with a
 * screenshot and an axe-core check of every page. Members and the workspace switcher are
 * in console-members.test.ts: one file each keeps either well inside the per-file timeout
 * on a slow, busy CI machine.
 */
const stack = await useStack(t);
const base = stack.baseUrl;
const admin = await stack.bootstrap({ org: 'Acme', workspace: 'Sales', email: 'ada@acme.test', defaultCountry: 'US' });
// A second workspace of the same person, so that landing on the first one means something.
await stack.bootstrap({ org: 'Acme', workspace: 'Support', email: 'ada@acme.test', defaultCountry: 'US' });
const ws = `/console/w/${admin.workspace.id}`;
const writer = client(base, await stack.token(admin.workspace.id, ['contacts:write', 'deals:write', 'schema:write']));

const browser = await launchBrowser();
t.teardown(() => browser.close());
const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: base });
const page = await context.newPage();
const cspReports: string[] = [];
collectCspViolations(page, cspReports);

t.test('an administrator signs in and lands on the overview of their first workspace', async (t) => {
  await signIn(page, base, 'ada@acme.test', TEST_PASSWORD);
  t.equal(new URL(page.url()).pathname, ws, 'the first workspace (Acme / Sales)');
  const nav = page.getByRole('navigation', { name: 'Console sections' });
  for (const section of ['Overview', 'Contacts', 'Deals', 'Connect an agent', 'Connected agents', 'API tokens', 'Members']) {
    t.equal(await nav.getByRole('link', { name: section, exact: true }).count(), 1, `${section} in the sections`);
  }
  t.match(await page.locator('main').innerText(), /Configuration: custom fields, pipelines, API tokens, webhooks and members/);
  await check(t, page, 'console-overview');
});

t.test('a token created in the console works over REST, shows its last use, and stops at revocation', async (t) => {
  await page.goto(`${base}${ws}/tokens`);
  await check(t, page, 'console-tokens');
  t.equal(await page.getByRole('checkbox').count(), SCOPES.length, 'an administrator may grant every scope');
  await page.getByLabel('Name').fill('Website form');
  await page.getByRole('checkbox', { name: /contacts:write/ }).check();
  t.equal(await submit(page, 'Create token'), 200);
  await page.getByRole('heading', { name: 'Token created' }).waitFor();
  t.match(await page.locator('main').innerText(), /You will not see it again/);
  t.equal(new URL(page.url()).pathname, `${ws}/tokens`, 'a reload shows the list, not the secret again');

  const shown = await shownText(page, 'new-token');
  t.match(shown, /^sk_live_[A-Za-z0-9_-]{20,}$/);
  await page.getByRole('button', { name: 'Copy token' }).click();
  await page.getByText('Copied to the clipboard.').waitFor();
  const token = await clipboard(page);
  t.equal(token, shown, 'the copy button copies the token');
  await check(t, page, 'console-token-created');

  const api = client(base, token);
  const me = await api.get<{ scopes: string[] }>('/v1/me');
  t.same(me.body.scopes, ['contacts:write']);
  const created = await api.post<{ id: string }>('/v1/contacts', { first_name: 'Consuela', last_name: 'Console', phone: '+1 415 555 0199' });
  t.equal(created.status, 201, 'the copied token creates a contact over REST');

  await page.reload();
  t.equal(await page.getByRole('heading', { name: 'API tokens', level: 1 }).count(), 1, 'reloading does not post the form again');
  const row = page.locator('tr', { hasText: 'Website form' });
  t.equal(await row.count(), 1, 'exactly one token was created');
  t.notMatch(await row.locator('[data-column="last-used"]').innerText(), /Never/, 'the list shows when it was last used');
  t.match(await row.innerText(), /ada@acme\.test/, 'and who created it');
  t.match(await row.innerText(), /contacts:write/);

  await row.getByRole('link', { name: 'Revoke Website form' }).click();
  await page.getByRole('heading', { name: 'Revoke the token "Website form"?' }).waitFor();
  await check(t, page, 'console-token-revoke');
  t.equal(await submit(page, 'Revoke token'), 303);
  t.match(await page.getByRole('status').first().innerText(), /revoked/);
  t.equal(await page.locator('tr', { hasText: 'Website form' }).count(), 0, 'gone from the active tokens');
  const after = await api.get('/v1/contacts');
  t.equal(after.status, 401, 'the next REST call with it is a 401');

  await page.getByRole('link', { name: 'Show revoked tokens too' }).click();
  t.match(await page.locator('tr', { hasText: 'Website form' }).innerText(), /Revoked/);
});

t.test('a bad token form is answered on the form, and creates nothing', async (t) => {
  await page.goto(`${base}${ws}/tokens`);
  await page.getByLabel('Name').fill('No scopes');
  t.equal(await submit(page, 'Create token'), 400);
  t.match(await page.getByRole('alert').innerText(), /^Scopes: at least one scope is required/, 'the field named by its label');
  t.equal(await page.evaluate<string | null>('document.activeElement.id'), 'create-error', 'focus is on the reason, not lost at the top of the page');
  await page.keyboard.press('Tab');
  t.equal(await page.evaluate<string | null>('document.activeElement.id'), 'token-name', 'and Tab goes on into the form');
  t.equal(await page.getByLabel('Name').inputValue(), 'No scopes', 'what was typed is kept');

  const expired = await page.request.post(`${base}${ws}/tokens`, {
    form: { csrf_token: await page.locator('input[name=csrf_token]').first().inputValue(), name: 'Past', scopes: 'contacts:read', expires_on: '2020-01-01' },
    maxRedirects: 0,
  });
  t.equal(expired.status(), 400, 'an expiry in the past is refused');
  const refusedPage = await expired.text();
  t.match(refusedPage, /Expires on: must be in the future/, 'named as the form names it, not expires_at');
  t.match(refusedPage, /<input id="token-expiry"[^>]*aria-invalid="true" aria-describedby="create-error token-expiry-help"/, 'the expiry is marked as the field refused');
  t.notMatch(refusedPage, /<input id="token-name"[^>]*aria-invalid/, 'the name is not');
  const tokens = await client(base, await stack.token(admin.workspace.id, ['tokens:write'])).get<{ data: { name: string }[] }>('/v1/tokens?include_revoked=true');
  t.same(tokens.body.data.filter((x) => x.name === 'No scopes' || x.name === 'Past'), [], 'nothing was created');
});

t.test('contacts: paged and filtered like GET /v1/contacts', async (t) => {
  for (let i = 0; i < 30; i++) {
    const res = await writer.post('/v1/contacts', { first_name: `Pat${String(i).padStart(2, '0')}`, last_name: 'Lister', phone: `+1 415 555 1${String(i).padStart(3, '0')}`, email: i === 7 ? 'seven@lister.test' : null });
    t.equal(res.status, 201);
  }
  const archived = await writer.post<{ id: string }>('/v1/contacts', { first_name: 'Old', phone: '+1 415 555 2999' });
  await writer.send('DELETE', `/v1/contacts/${archived.body.id}`);

  await page.goto(`${base}${ws}/contacts`);
  const api = async (query: string) =>
    (await writer.get<{ data: { first_name: string; last_name: string | null }[] }>(`/v1/contacts?${query}`)).body.data.map((c) => [c.first_name, c.last_name].filter(Boolean).join(' '));
  const shown = async () => page.locator('tbody tr td:first-child strong').allInnerTexts();
  t.same(await shown(), await api('limit=25'), 'the first page is the API’s first page');
  t.match(await page.getByRole('status').innerText(), /32 contacts match/);
  await check(t, page, 'console-contacts');

  await page.getByRole('link', { name: 'Next page' }).click();
  t.same(await shown(), (await api('limit=50')).slice(25), 'the next page follows the cursor');
  t.equal(await page.getByRole('link', { name: 'Next page' }).count(), 0, 'and is the last');
  await page.getByRole('link', { name: 'First page' }).click();

  await page.getByLabel('Search').fill('pat1');
  await page.getByRole('button', { name: 'Search' }).click();
  t.same(await shown(), await api('q=pat1'), 'search matches like q');
  t.equal((await shown()).length, 10);

  await page.getByRole('link', { name: 'Clear' }).click();
  await page.getByLabel('E-mail (exact)').fill('SEVEN@lister.test');
  await page.getByRole('button', { name: 'Search' }).click();
  t.same(await shown(), ['Pat07 Lister']);
  t.equal(await page.getByRole('navigation', { name: 'Pages' }).count(), 0, 'one page: no empty pager for a screen reader to announce');

  await page.goto(`${base}${ws}/contacts`);
  await page.getByLabel('Status').selectOption('archived');
  await page.getByRole('button', { name: 'Search' }).click();
  t.same(await shown(), ['Old']);
  t.equal(new URL(page.url()).searchParams.get('status'), 'archived', 'filters live in the URL, so a search can be shared');

  await page.goto(`${base}${ws}/contacts?created_after=2999-01-01`);
  t.match(await page.locator('main').innerText(), /No contacts\./);
  const bad = await page.goto(`${base}${ws}/contacts?status=deleted`);
  t.equal(bad?.status(), 400);
  t.match(await page.getByRole('alert').innerText(), /^Status: /, 'the filter named by its label');
  await page.goto(`${base}${ws}/contacts?phone=abc`);
  t.match(await page.getByRole('alert').innerText(), /^Phone: /);
  t.equal(await page.getByLabel('Phone').getAttribute('aria-invalid'), 'true', 'the refused filter is marked');
  t.equal(await page.getByLabel('Phone').getAttribute('aria-describedby'), 'filter-error', 'the reason is its description');
  t.equal(await page.getByLabel('Search').getAttribute('aria-invalid'), null, 'and no other');
});

t.test('deals, grouped by the stages of a pipeline', async (t) => {
  const pipelines = (await writer.get<{ data: { id: string; is_default: boolean; stages: { id: string; name: string }[] }[] }>('/v1/pipelines')).body.data;
  const pipeline = pipelines.find((p) => p.is_default) ?? pipelines[0];
  if (!pipeline) throw new Error('no pipeline');
  const [lead, , , won] = pipeline.stages;
  for (let i = 0; i < 12; i++) await writer.post('/v1/deals', { name: `Lead deal ${i + 1}`, stage_id: lead?.id });
  await writer.post('/v1/deals', { name: 'Signed and sealed', stage_id: won?.id, amount: 125000, currency: 'USD' });
  const second = await writer.post<{ id: string; stages: { id: string }[] }>('/v1/pipelines', { name: 'Partners', stages: ['Talking', 'Signed'] });
  await writer.post('/v1/deals', { name: 'Partner deal', pipeline_id: second.body.id });
  // A name without a space (a pasted reference, a URL) must wrap inside its card, not run across the next columns.
  await writer.post('/v1/deals', { name: `PO-${'7'.repeat(180)}`, pipeline_id: second.body.id });

  await page.goto(`${base}${ws}/deals`);
  const headings = await page.locator('.stage h2').allInnerTexts();
  t.same(headings, pipeline.stages.map((s) => s.name), 'one column per stage, in pipeline order');
  const wonColumn = page.locator('section.stage', { has: page.getByRole('heading', { name: won?.name ?? '' }) });
  t.match(await wonColumn.innerText(), /Signed and sealed[\s\S]*\$1,250\.00/, 'amounts in the currency’s units');
  const leadColumn = page.locator('section.stage', { has: page.getByRole('heading', { name: lead?.name ?? '' }) });
  t.equal(await leadColumn.locator('li.deal').count(), 10, 'a column shows the first ten');
  t.notMatch(await page.locator('main').innerText(), /Partner deal/, 'only the chosen pipeline');
  await check(t, page, 'console-deals');

  await leadColumn.getByRole('link', { name: `All deals in ${lead?.name}` }).click();
  t.equal(await page.locator('li.deal').count(), 12, 'the whole stage on its own page');

  await page.getByLabel('Pipeline').selectOption({ label: 'Partners' });
  await page.waitForURL((url) => url.searchParams.get('pipeline') === second.body.id);
  t.match(await page.locator('main').innerText(), /Partner deal/, 'the pipeline chooser switches the board');
  const overflowing = await page.evaluate<number>(`[...document.querySelectorAll('.stage, li.deal')].filter((e) => e.scrollWidth > e.clientWidth).length`);
  t.equal(overflowing, 0, 'a long name wraps within its card and its column');

  // From the keyboard, an arrow key only moves the choice: Enter (or Show) goes there.
  const chooser = page.getByLabel('Pipeline');
  await chooser.focus();
  await page.keyboard.press('ArrowUp');
  t.equal(await chooser.inputValue(), pipeline.id, 'the arrow key moved the choice');
  await page.waitForTimeout(1000);
  t.equal(new URL(page.url()).searchParams.get('pipeline'), second.body.id, 'without leaving the page');
  await page.keyboard.press('Enter');
  await page.waitForURL((url) => url.searchParams.get('pipeline') === pipeline.id);
  t.match(await page.locator('main').innerText(), /Signed and sealed/, 'Enter shows the chosen pipeline');
});

t.test('connect an agent: the mcpServers configuration, interactive and with a token variable', async (t) => {
  await page.goto(`${base}${ws}/connect`);
  const interactive = JSON.parse(await shownText(page, 'config-interactive'));
  t.same(interactive, { mcpServers: { crm: { type: 'http', url: `${base}/mcp/crm` }, studio: { type: 'http', url: `${base}/mcp/studio` } } });
  const withToken = JSON.parse(await shownText(page, 'config-token'));
  t.same(withToken.mcpServers.crm, { type: 'http', url: `${base}/mcp/crm`, headers: { Authorization: 'Bearer ${CRM_TOKEN}' } });
  await page.getByRole('button', { name: 'Copy interactive configuration' }).click();
  await page.locator('#config-interactive-status', { hasText: 'Copied' }).waitFor();
  t.same(JSON.parse(await clipboard(page)), interactive, 'copied as shown');
  await check(t, page, 'console-connect');

  await page.getByLabel('Environment variable').fill('CI_CRM_TOKEN');
  await page.getByRole('button', { name: 'Update' }).click();
  t.same(JSON.parse(await shownText(page, 'config-token')).mcpServers.studio.headers, { Authorization: 'Bearer ${CI_CRM_TOKEN}' });
  const pasted = await page.goto(`${base}${ws}/connect?token_env=sk_live_oops`);
  t.equal(pasted?.status(), 400, 'a token pasted instead of a variable name is refused');
  t.same(JSON.parse(await shownText(page, 'config-token')).mcpServers.crm.headers, { Authorization: 'Bearer ${CRM_TOKEN}' }, 'and not put into the configuration');
  t.notMatch(await page.content(), /sk_live_oops/, 'nor anywhere else on the page');
});

t.test('every page: the banner and the section links are landmarks beside main, not inside it', async (t) => {
  for (const path of ['', '/contacts', '/tokens', '/no-such-page']) {
    await page.goto(`${base}${ws}${path}`);
    t.equal(await page.getByRole('banner').count(), 1, `${path || '/'}: one banner (workspace, user, sign out)`);
    t.equal(await page.getByRole('navigation', { name: 'Console sections' }).count(), 1, `${path || '/'}: the sections`);
    t.equal(await page.getByRole('main').getByRole('navigation', { name: 'Console sections' }).count(), 0, 'not inside main');
    t.equal(await page.getByRole('main').getByRole('button', { name: 'Sign out' }).count(), 0, 'main holds the page only');
    t.equal(await page.getByRole('main').getByRole('heading', { level: 1 }).count(), 1, 'and starts with its heading');
  }
});

t.test('on a narrow screen a wide table scrolls in its own box, and the page does not scroll sideways', async (t) => {
  await page.setViewportSize({ width: 390, height: 800 });
  for (const path of ['/members', '/tokens', '/pipelines', '/contacts/new', '/deals/new']) {
    await page.goto(`${base}${ws}${path}`);
    // Before, the table's hidden "Actions" header (position: absolute) was placed past the scrolling box, widening the page.
    t.equal(await page.evaluate<number>('document.documentElement.scrollWidth - document.documentElement.clientWidth'), 0, `${path}: no sideways scroll`);
  }
  await page.setViewportSize({ width: 1280, height: 800 });
});

t.test('every page: security headers, CSRF fields on every form, no inline script', async (t) => {
  const cookies = (await context.cookies(base)).map((c) => `${c.name}=${c.value}`).join('; ');
  const edited = (await writer.post<{ id: string }>('/v1/contacts', { first_name: 'Headers', phone: '+1 415 555 2998' })).body.id;
  // A second pipeline, so the pipelines page also has its "Make default" form.
  const renamed = (await writer.post<{ id: string }>('/v1/pipelines', { name: 'Headers pipeline' })).body.id;
  for (const path of ['', '/contacts', '/contacts/new', `/contacts/${edited}/edit`, '/deals', '/deals/new', '/pipelines', `/pipelines/${renamed}`, '/fields', '/activity', '/connect', '/agents', '/tokens', '/webhooks', '/members', '/settings']) {
    const res = await fetch(`${base}${ws}${path}`, { headers: { cookie: cookies }, redirect: 'manual' });
    t.equal(res.status, 200, `${path || '/'}: 200`);
    const csp = res.headers.get('content-security-policy') ?? '';
    t.match(csp, /script-src 'self'/);
    t.match(csp, /frame-ancestors 'none'/);
    t.equal(res.headers.get('x-frame-options'), 'DENY');
    t.equal(res.headers.get('cache-control'), 'no-store');
    const body = await res.text();
    t.notMatch(body, /<script(?![^>]*\bsrc=)/, 'no inline script');
    t.notMatch(body, /\son[a-z]+="/, 'no inline event handlers');
    const posts = body.match(/<form\b[^>]*\bmethod="post"/g)?.length ?? 0;
    t.equal(body.match(/name="csrf_token"/g)?.length ?? 0, posts, 'every form carries the CSRF token');
  }
  const forged = await fetch(`${base}${ws}/tokens`, {
    method: 'POST',
    headers: { cookie: cookies.replace(/crm_csrf=[^;]*/, 'crm_csrf=forged'), 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ csrf_token: 'forged-but-different', name: 'Forged', scopes: 'contacts:read' }),
    redirect: 'manual',
  });
  t.equal(forged.status, 403, 'a form without the matching CSRF token is refused');
  const tokens = await client(base, await stack.token(admin.workspace.id, ['tokens:write'])).get<{ data: { name: string }[] }>('/v1/tokens');
  t.notOk(tokens.body.data.some((x) => x.name === 'Forged'), 'and changes nothing');
  t.same(cspReports, [], 'the pages ran without a single CSP violation');
});

t.test('signing out ends the session; signing in again starts a new one', async (t) => {
  const before = (await context.cookies(base)).find((c) => c.name === '__Host-crm_session')?.value ?? '';
  t.ok(before);
  await page.goto(`${base}${ws}`);
  await page.getByRole('button', { name: 'Sign out' }).click();
  await page.getByRole('heading', { name: 'Signed out' }).waitFor();
  await check(t, page, 'console-signed-out');
  await page.goto(`${base}${ws}/tokens`);
  t.equal(new URL(page.url()).pathname, '/sign-in', 'the console asks to sign in again');
  await check(t, page, 'console-sign-in');
  const replay = await fetch(`${base}${ws}/tokens`, { headers: { cookie: `__Host-crm_session=${before}` }, redirect: 'manual' });
  t.equal(replay.status, 303, 'the old session cookie no longer works');
  t.match(replay.headers.get('location') ?? '', /^\/sign-in\?next=/);

  await page.getByLabel('E-mail').fill('ada@acme.test');
  await page.getByLabel('Password').fill(TEST_PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL(`${base}${ws}/tokens`);
  const after = (await context.cookies(base)).find((c) => c.name === '__Host-crm_session')?.value ?? '';
  t.ok(after && after !== before, 'a new session, and back where they were going');
});

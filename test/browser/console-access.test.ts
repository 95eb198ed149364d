import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import t from 'tap';
import { collectCspViolations, launchBrowser } from '../helpers/browser.js';
import { signInToConsole } from '../helpers/console-forms.js';
import { check, signIn } from '../helpers/console-pages.js';
import { client } from '../helpers/http.js';
import { authorizeWithForms, pkce, registerClient, tokenRequest } from '../helpers/oauth-forms.js';
import { useStack } from '../helpers/shared-stack.js';
import { TEST_PASSWORD } from '../helpers/stack.js';

/**
 * Who may do what in the console: a member without the Configuration permission, and
 * agents connected through OAuth, listed and cut off from the console.
 */
const stack = await useStack(t);
const base = stack.baseUrl;
const admin = await stack.bootstrap({ org: 'Initech', workspace: 'Sales', email: 'ada@initech.test', defaultCountry: 'US' });
await stack.addMember(admin.workspace.id, 'rep@initech.test', ['contacts.write', 'deals.read'], 'all');
const ws = `/console/w/${admin.workspace.id}`;
const adminApi = client(base, await stack.token(admin.workspace.id, ['tokens:write', 'contacts:write']));
await adminApi.post('/v1/contacts', { first_name: 'Ann', phone: '+1 415 555 0101' });

const browser = await launchBrowser();
t.teardown(() => browser.close());
/** What every page of this file's tests reported about its CSP: checked at the end. */
const cspReports: string[] = [];

async function tokenNames(): Promise<string[]> {
  return (await adminApi.get<{ data: { name: string }[] }>('/v1/tokens?include_revoked=true')).body.data.map((x) => x.name);
}

t.test('a member without Configuration sees no token or member pages, and cannot post to them', async (t) => {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  t.teardown(() => context.close());
  const page = await context.newPage();
  collectCspViolations(page, cspReports);
  await signIn(page, base, 'rep@initech.test', TEST_PASSWORD);
  t.equal(new URL(page.url()).pathname, ws);
  const nav = await page.getByRole('navigation', { name: 'Console sections' }).innerText();
  t.notMatch(nav, /API tokens/, 'no API tokens section');
  t.notMatch(nav, /Members/, 'no members section');
  t.match(nav, /Contacts/);
  t.notMatch(await page.locator('main').innerText(), /Create an API token|Invite a member/);
  await check(t, page, 'console-member-overview');

  for (const path of ['/tokens', '/members', `/members/${admin.user.id}`, `/members/${admin.user.id}/remove`, '/pipelines', '/fields']) {
    const res = await page.goto(`${base}${ws}${path}`);
    t.equal(res?.status(), 403, `GET ${path}: 403`);
  }
  t.match(await page.getByRole('alert').innerText(), /Configuration permission/);
  await check(t, page, 'console-forbidden');

  // Direct POSTs with a perfectly valid CSRF token: the permission is what refuses them.
  await page.goto(`${base}${ws}/connect`);
  const csrf = await page.locator('input[name=csrf_token]').first().inputValue();
  const before = await tokenNames();
  const attempts: [string, Record<string, string>][] = [
    ['/tokens', { name: 'Sneaky', scopes: 'contacts:read' }],
    ['/members', { email: 'friend@initech.test', permissions: 'configuration', visibility: 'all' }],
    [`/members/${admin.user.id}`, { permissions: 'contacts.read', visibility: 'owned' }],
    [`/members/${admin.user.id}/remove`, {}],
    ['/pipelines/pipe_any/stages', { name: 'Sneaky stage' }],
    ['/fields', { object_type: 'contact', key: 'sneaky', label: 'Sneaky', type: 'text' }],
  ];
  for (const [path, form] of attempts) {
    const res = await page.request.post(`${base}${ws}${path}`, { form: { csrf_token: csrf, ...form }, maxRedirects: 0 });
    t.equal(res.status(), 403, `POST ${path}: 403`);
  }
  const created = await client(base, await stack.token(admin.workspace.id, ['tokens:write'])).get<{ data: { id: string }[] }>('/v1/tokens');
  const target = created.body.data[0]?.id ?? '';
  const revoke = await page.request.post(`${base}${ws}/tokens/${target}/revoke`, { form: { csrf_token: csrf }, maxRedirects: 0 });
  t.equal(revoke.status(), 403, 'nor revoke a token');
  t.same((await tokenNames()).filter((n) => !before.includes(n) && n !== 'crm command line'), [], 'no token was created');
  for (const path of ['/contacts', '/deals', '/connect', '/agents']) {
    t.equal((await page.goto(`${base}${ws}${path}`))?.status(), 200, `what their permissions allow still works: ${path}`);
  }
});

const REDIRECT = 'http://127.0.0.1:9/callback';

/** An agent connected through the real sign-in and consent forms, with its tokens. */
async function connectAgent(name: string, email: string, allowChanges: boolean) {
  const clientId = await registerClient(base, REDIRECT, name);
  const { verifier, challenge } = pkce();
  const { code } = await authorizeWithForms({ baseUrl: base, clientId, redirectUri: REDIRECT, server: 'crm', email, password: TEST_PASSWORD, challenge, allowChanges });
  const tokens = await tokenRequest(base, { grant_type: 'authorization_code', code, redirect_uri: REDIRECT, client_id: clientId, code_verifier: verifier, resource: `${base}/mcp/crm` });
  if (tokens.status !== 200) throw new Error(JSON.stringify(tokens.body));
  return { clientId, access: String(tokens.body.access_token), refresh: String(tokens.body.refresh_token) };
}

/** One tool call with the agent's access token; an MCP client per call, as a stateless agent would. */
async function callTool(access: string, name: string, args: Record<string, unknown> = {}): Promise<{ ok: boolean; text: string }> {
  const mcp = new Client({ name: 'console-test', version: '1.0.0' });
  try {
    await mcp.connect(new StreamableHTTPClientTransport(new URL(`${base}/mcp/crm`), { requestInit: { headers: { Authorization: `Bearer ${access}` } } }));
    const result = await mcp.callTool({ name, arguments: args });
    const text = JSON.stringify(result.content);
    return { ok: result.isError !== true, text };
  } catch (error) {
    return { ok: false, text: String(error) };
  } finally {
    await mcp.close().catch(() => undefined);
  }
}

/** Polls until `done` holds; returns how long that took, or null after `limitMs`. */
async function within(limitMs: number, done: () => Promise<boolean>): Promise<number | null> {
  const start = Date.now();
  while (Date.now() - start < limitMs) {
    if (await done()) return Date.now() - start;
    await new Promise((r) => setTimeout(r, 100));
  }
  return null;
}

t.test('an agent connected through OAuth is listed under Connected agents and stops when revoked there', async (t) => {
  const agent = await connectAgent('Claude Console Test', 'ada@initech.test', false);
  t.ok((await callTool(agent.access, 'whoami')).ok, 'the agent works');
  const repAgent = await connectAgent('Rep Helper', 'rep@initech.test', false);
  t.ok((await callTool(repAgent.access, 'find_contacts', {})).ok);

  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  t.teardown(() => context.close());
  const page = await context.newPage();
  collectCspViolations(page, cspReports);
  await signIn(page, base, 'ada@initech.test', TEST_PASSWORD, `${ws}/agents`);
  const row = page.locator('tr', { hasText: 'Claude Console Test' });
  const text = await row.innerText();
  t.match(text, /127\.0\.0\.1:9/, 'its redirect host');
  t.match(text, /ada@initech\.test/, 'its user');
  t.match(text, /Read-only/);
  t.match(text, /contacts:read/);
  t.notMatch(text, /Not yet/, 'and when it was last used');
  t.match(await page.locator('tr', { hasText: 'Rep Helper' }).innerText(), /rep@initech\.test/, 'an administrator sees every member’s agents');
  await check(t, page, 'console-agents');

  await row.getByRole('link', { name: /^Revoke Claude Console Test/ }).click();
  await page.getByRole('heading', { name: 'Disconnect Claude Console Test?' }).waitFor();
  await check(t, page, 'console-agent-revoke');
  await page.getByRole('button', { name: 'Revoke access' }).click();
  await page.getByText('The agent was disconnected.').waitFor();
  const stoppedAfter = await within(5000, async () => !(await callTool(agent.access, 'whoami')).ok);
  t.not(stoppedAfter, null, `the agent stopped within 5 s (after ${stoppedAfter} ms)`);
  const refresh = await tokenRequest(base, { grant_type: 'refresh_token', refresh_token: agent.refresh, client_id: agent.clientId });
  t.equal(refresh.status, 400, 'and cannot refresh its way back');
  t.equal(refresh.body.error, 'invalid_grant');
  t.equal(await page.locator('tr', { hasText: 'Claude Console Test' }).count(), 0, 'gone from the list');
  await page.getByRole('link', { name: 'Show revoked agents too' }).click();
  t.match(await page.locator('tr', { hasText: 'Claude Console Test' }).innerText(), /Revoked/);
});

t.test('a member sees and revokes only their own agents', async (t) => {
  const mine = await connectAgent('Rep Second Helper', 'rep@initech.test', false);
  const admins = await connectAgent('Admin Helper', 'ada@initech.test', false);
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  t.teardown(() => context.close());
  const page = await context.newPage();
  collectCspViolations(page, cspReports);
  await signIn(page, base, 'rep@initech.test', TEST_PASSWORD, `${ws}/agents`);
  const listed = await page.locator('tbody tr').allInnerTexts();
  t.ok(listed.length >= 2 && listed.every((r) => /rep@initech\.test/.test(r)), 'only their own');
  t.notOk(listed.some((r) => /Admin Helper/.test(r)));

  // The administrator's agent is not theirs to see or revoke, even by URL.
  const adminGrant = await adminGrantId('Admin Helper');
  const csrf = await page.locator('input[name=csrf_token]').first().inputValue();
  const foreign = await page.request.post(`${base}${ws}/agents/${adminGrant}/revoke`, { form: { csrf_token: csrf }, maxRedirects: 0 });
  t.equal(foreign.status(), 404);
  t.ok((await callTool(admins.access, 'whoami')).ok, 'the administrator’s agent still works');

  await page.locator('tr', { hasText: 'Rep Second Helper' }).getByRole('link', { name: /^Revoke/ }).click();
  await page.getByRole('button', { name: 'Revoke access' }).click();
  t.not(await within(5000, async () => !(await callTool(mine.access, 'whoami')).ok), null, 'their own agent stopped within 5 s');
});

/** The grant id of an agent, as an administrator's console lists it. */
async function adminGrantId(clientName: string): Promise<string> {
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    collectCspViolations(page, cspReports);
    await signIn(page, base, 'ada@initech.test', TEST_PASSWORD, `${ws}/agents`);
    const href = (await page.locator('tr', { hasText: clientName }).getByRole('link', { name: /^Revoke/ }).getAttribute('href')) ?? '';
    return /agents\/([^/]+)\/revoke/.exec(href)?.[1] ?? '';
  } finally {
    await context.close();
  }
}

t.test('changing a member’s permissions in the console applies to their agents within seconds', async (t) => {
  // "Allow changes" is offered to an agent connected before (test/security/consent-allow-changes.test.ts).
  await connectAgent('Rep Writer', 'rep@initech.test', false);
  const agent = await connectAgent('Rep Writer', 'rep@initech.test', true);
  t.ok((await callTool(agent.access, 'create_contact', { first_name: 'Written', phone: '+1 415 555 0177' })).ok, 'the agent may write');
  const adminView = await browser.newContext();
  const listing = await adminView.newPage();
  collectCspViolations(listing, cspReports);
  await signIn(listing, base, 'ada@initech.test', TEST_PASSWORD, `${ws}/agents`);
  const writerRow = listing.locator('tr', { hasText: 'Rep Writer' }).filter({ hasText: 'Reads and changes' });
  t.match(await writerRow.innerText(), /Reads and changes[\s\S]*contacts:write/, 'listed as allowed to change things');
  await adminView.close();

  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  t.teardown(() => context.close());
  const page = await context.newPage();
  collectCspViolations(page, cspReports);
  await signIn(page, base, 'ada@initech.test', TEST_PASSWORD, `${ws}/members`);
  await page.getByRole('link', { name: 'Change rep@initech.test' }).click();
  await page.getByLabel('Create and change contacts').uncheck();
  await page.getByLabel('Read contacts').check();
  await page.getByRole('button', { name: 'Save changes' }).click();
  await page.getByText('The member’s permissions were changed.').waitFor();

  const readOnly = await within(5000, async () => !(await callTool(agent.access, 'create_contact', { first_name: 'Again', phone: '+1 415 555 0178' })).ok);
  t.not(readOnly, null, `writing stopped within 5 s (after ${readOnly} ms), with the same access token`);
  t.ok((await callTool(agent.access, 'find_contacts', {})).ok, 'reading still works');
  const names = (await adminApi.get<{ data: { first_name: string }[] }>('/v1/contacts?q=again')).body.data;
  t.same(names, [], 'nothing was written after the change');

  await page.goto(`${base}${ws}/members`);
  await page.getByRole('link', { name: 'Remove rep@initech.test' }).click();
  await page.getByRole('button', { name: 'Remove member' }).click();
  await page.getByText('The member was removed.').waitFor();
  t.not(await within(5000, async () => !(await callTool(agent.access, 'find_contacts', {})).ok), null, 'a removed member’s agents stop within 5 s');
});

t.test('switching workspaces keeps the section only where the member’s permissions there show it', async (t) => {
  // Sam administers Support and is a plain member of Sales.
  const support = await stack.bootstrap({ org: 'Initech', workspace: 'Support', email: 'sam@initech.test' });
  await stack.addMember(admin.workspace.id, 'sam@initech.test', ['contacts.read'], 'all');
  const sam = await signInToConsole(base, support.workspace.id, 'sam@initech.test', TEST_PASSWORD);
  const switchTo = async (workspaceId: string, section: string) =>
    (await sam.browser.request(`${base}/console/switch?${new URLSearchParams({ workspace: workspaceId, section })}`)).headers.get('location');
  t.equal(await switchTo(admin.workspace.id, 'tokens'), ws, 'from Support’s API tokens to Sales’ overview, not to a page that refuses them');
  t.equal(await switchTo(admin.workspace.id, 'webhooks'), ws);
  t.equal(await switchTo(admin.workspace.id, 'deals'), ws, 'nor to deals they may not read');
  t.equal(await switchTo(admin.workspace.id, 'contacts'), `${ws}/contacts`, 'a section they may use there is kept');
  t.equal(await switchTo(support.workspace.id, 'tokens'), `/console/w/${support.workspace.id}/tokens`, 'and so is one they administer');
});

t.test('an administrator who gives up their own Configuration goes on to the overview, not to a page they may no longer see', async (t) => {
  const finance = await stack.bootstrap({ org: 'Initech', workspace: 'Finance', email: 'fay@initech.test' });
  await stack.addMember(finance.workspace.id, 'ada@initech.test', ['configuration'], 'all');
  const fay = await signInToConsole(base, finance.workspace.id, 'fay@initech.test', TEST_PASSWORD);
  const here = `/console/w/${finance.workspace.id}`;
  const changed = await fay.post(`/members/${finance.user.id}`, { permissions: 'contacts.read', visibility: 'all' });
  t.equal(changed.status, 303);
  const next = changed.headers.get('location') ?? '';
  t.equal(new URL(next, base).pathname, here, 'to the workspace’s overview');
  const overview = await fay.browser.request(`${base}${next}`);
  t.equal(overview.status, 200);
  t.match(await overview.text(), /Your permissions in this workspace were changed/);
});

t.test('a workspace address written with /W/ is the same workspace, not pages without one', async (t) => {
  // Routes match regardless of case: the session must read the workspace the same way.
  const ada = await signInToConsole(base, admin.workspace.id, 'ada@initech.test', TEST_PASSWORD);
  const upper = `/console/W/${admin.workspace.id}`;
  const contacts = await ada.browser.request(`${base}${upper}/contacts`);
  t.equal(contacts.status, 200, 'was a 401 "A valid bearer token is required"');
  t.match(await contacts.text(), /Ann/);
  t.equal((await ada.browser.request(`${base}${upper}/tokens`)).status, 200, 'an administrator’s page was a 403');
  t.equal((await ada.browser.request(`${base}/console/W/ws_elsewhere/contacts`)).status, 404, 'a workspace they are not in is still not found');
});

t.test('every page of these tests ran under its CSP without a violation', async (t) => {
  t.same(cspReports, []);
});

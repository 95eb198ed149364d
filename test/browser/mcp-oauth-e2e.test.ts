import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { BrowserContext, Page } from 'playwright-core';
import t from 'tap';
import { SCOPE_DESCRIPTIONS } from '../../shared/auth/scopes.js';
import { launchBrowser } from '../helpers/browser.js';
import { AGENT_REDIRECT, TestAgent } from '../helpers/mcp-oauth-agent.js';
import { client as restClient } from '../helpers/http.js';
import { useStack } from '../helpers/shared-stack.js';
import { TEST_PASSWORD } from '../helpers/stack.js';

/**
 * The real flow an agent goes through: the MCP SDK's client discovers the server's
 * authorization server, registers itself, sends the user to sign in and consent (clicked
 * here in headless Chromium), exchanges the code, and calls tools.
 */
const REDIRECT = AGENT_REDIRECT;


const stack = await useStack(t);
const admin = await stack.bootstrap({ org: 'Umbrella', workspace: 'Sales', email: 'ada@umbrella.test', defaultCountry: 'US' });
// A second user in two workspaces, with different permissions in each.
const two = await stack.bootstrap({ org: 'Hooli', workspace: 'North', email: 'owner@hooli.test' });
const three = await stack.bootstrap({ org: 'Hooli', workspace: 'South', email: 'owner@hooli.test' });
await stack.addMember(two.workspace.id, 'rep@hooli.test', ['contacts.read'], 'all');
await stack.addMember(three.workspace.id, 'rep@hooli.test', ['contacts.read', 'deals.read'], 'all');

const browser = await launchBrowser();
t.teardown(() => browser.close());

async function newTab(context: BrowserContext): Promise<{ page: Page; code: () => Promise<string> }> {
  const page = await context.newPage();
  let resolve: (code: string) => void = () => undefined;
  const code = new Promise<string>((r) => (resolve = r));
  // The client's redirect: answered by the test, which takes the code from the URL.
  await page.route(`${REDIRECT}**`, async (route) => {
    resolve(new URL(route.request().url()).searchParams.get('code') ?? '');
    await route.fulfill({ status: 200, contentType: 'text/plain', body: 'Done. You can close this tab.' });
  });
  return { page, code: () => code };
}

/** Connects an agent; when the server asks for authorization, `consent` drives the browser. */
async function connect(server: 'crm' | 'studio', agent: TestAgent, consent: () => Promise<string>): Promise<Client> {
  const url = new URL(`${stack.baseUrl}/mcp/${server}`);
  const first = new StreamableHTTPClientTransport(url, { authProvider: agent });
  const attempt = new Client({ name: 'e2e', version: '1.0.0' });
  try {
    await attempt.connect(first);
    return attempt;
  } catch (error) {
    if (!(error instanceof UnauthorizedError)) throw error;
  }
  await first.finishAuth(await consent());
  const client = new Client({ name: 'e2e', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(url, { authProvider: agent }));
  return client;
}

const context = await browser.newContext();

t.test('first connection: discovery, registration, sign-in, consent, code exchange; read-only', async (t) => {
  const agent = new TestAgent('Claude Test Agent');
  const { page, code } = await newTab(context);
  const client = await connect('crm', agent, async () => {
    await page.goto(agent.authorizationUrl?.href ?? '');
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    await page.getByLabel('E-mail').fill('ada@umbrella.test');
    await page.getByLabel('Password').fill(TEST_PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: /Connect Claude Test Agent/ }).waitFor();
    const text = await page.locator('main').innerText();
    t.match(text, /Claude Test Agent/, 'names the client');
    t.match(text, /127\.0\.0\.1:9/, 'names its redirect host');
    t.match(text, /Workspace: Umbrella \/ Sales/, 'one workspace: shown as text');
    t.equal(await page.locator('select').count(), 0, 'no dropdown');
    t.match(text, /Read contacts/);
    t.notMatch(text, /Allow changes/, 'the first connection cannot write');
    await page.getByRole('button', { name: 'Approve' }).click();
    return code();
  });
  t.ok(agent.clientInformation()?.client_id, 'registered dynamically');
  t.notOk((agent.clientInformation() as { client_secret?: string }).client_secret, 'no client secret issued');

  const tools = (await client.listTools()).tools.map((tool) => tool.name);
  t.ok(tools.includes('find_contacts'));
  t.same(tools.filter((name) => /^(create|update)_/.test(name)), [], 'no write tools are listed');
  const who = (await client.callTool({ name: 'whoami', arguments: {} })).structuredContent as Record<string, unknown>;
  t.match(who, {
    credential_kind: 'oauth',
    authorized_by: { type: 'user', id: admin.user.id, email: 'ada@umbrella.test' },
    workspace: { id: admin.workspace.id, name: 'Sales' },
    organization: { name: 'Umbrella' },
    reads_company_wide: true,
  });
  t.same((who.scopes as string[]).sort(), ['contacts:read', 'deals:read', 'events:read', 'schema:read']);
  // This user may allow changes, and the SDK speaks 2025-11-25: the answer is the step-up challenge (mcp-scope-step-up.test.ts).
  await t.rejects(client.callTool({ name: 'create_contact', arguments: { first_name: 'Nope', phone: '+1 415 555 0100' } }), { code: 403 }, 'an unlisted write tool cannot be called either');
  await client.close();

  const studio = await fetch(`${stack.baseUrl}/mcp/studio`, {
    method: 'POST',
    headers: { authorization: `Bearer ${agent.tokens()?.access_token}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
  });
  t.equal(studio.status, 401, 'the CRM access token is refused by the Studio server');
  t.match(studio.headers.get('www-authenticate'), /resource_metadata=".*\/\.well-known\/oauth-protected-resource\/mcp\/studio"/);
});

t.test('added again in the same browser: no sign-in; "Allow changes" is offered and writes work', async (t) => {
  const agent = new TestAgent('Claude Test Agent');
  const { page, code } = await newTab(context);
  let sawSignIn = false;
  page.on('framenavigated', (frame) => {
    if (frame === page.mainFrame() && new URL(frame.url()).pathname === '/sign-in') sawSignIn = true;
  });
  const client = await connect('crm', agent, async () => {
    await page.goto(agent.authorizationUrl?.href ?? '');
    await page.getByRole('heading', { name: /Connect Claude Test Agent/ }).waitFor();
    t.equal(new URL(page.url()).pathname, '/oauth/consent', 'straight to consent');
    const allow = page.getByLabel(/Allow changes/);
    t.equal(await allow.count(), 1, '"Allow changes" is offered this time');
    await allow.check();
    await page.getByRole('button', { name: 'Approve' }).click();
    return code();
  });
  t.equal(sawSignIn, false, 'the browser was never sent to sign in');
  const tools = (await client.listTools()).tools.map((tool) => tool.name);
  t.ok(tools.includes('create_contact') && tools.includes('update_deal'), 'write tools are listed');
  const created = await client.callTool({ name: 'create_contact', arguments: { first_name: 'From', last_name: 'Agent', phone: '(415) 555-0123' } });
  t.notOk(created.isError, JSON.stringify(created.content));
  const contact = created.structuredContent as { id: string; owner_id: string };
  t.equal(contact.owner_id, admin.user.id, "the agent's contact belongs to the user who authorized it");
  const token = await stack.token(admin.workspace.id, ['contacts:read']);
  const listed = await restClient(stack.baseUrl, token).get<{ data: { id: string }[] }>('/v1/contacts?limit=100');
  t.ok(listed.body.data.some((c) => c.id === contact.id), 'the contact appears in GET /v1/contacts');
  await client.close();
});

t.test('a user with two workspaces picks one from a dropdown; the permission list follows it', async (t) => {
  const agent = new TestAgent('Dropdown Agent');
  const other = await browser.newContext();
  t.teardown(() => other.close());
  const { page, code } = await newTab(other);
  const client = await connect('crm', agent, async () => {
    await page.goto(agent.authorizationUrl?.href ?? '');
    await page.getByLabel('E-mail').fill('rep@hooli.test');
    await page.getByLabel('Password').fill(TEST_PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    const select = page.getByLabel('Workspace');
    await select.waitFor();
    t.same(await select.locator('option').allInnerTexts(), ['Hooli / North', 'Hooli / South'], 'a dropdown of both workspaces');
    const visible = async () => (await page.locator('section:not([hidden]) li').allInnerTexts()).sort();
    t.same(await visible(), [SCOPE_DESCRIPTIONS['contacts:read'], SCOPE_DESCRIPTIONS['schema:read'], SCOPE_DESCRIPTIONS['events:read']].sort(), 'North: contacts only');
    await select.selectOption({ label: 'Hooli / South' });
    t.same(await visible(), [SCOPE_DESCRIPTIONS['contacts:read'], SCOPE_DESCRIPTIONS['schema:read'], SCOPE_DESCRIPTIONS['deals:read'], SCOPE_DESCRIPTIONS['events:read']].sort(), 'South: contacts and deals');
    await page.getByRole('button', { name: 'Approve' }).click();
    return code();
  });
  const who = (await client.callTool({ name: 'whoami', arguments: {} })).structuredContent as { workspace: { id: string }; scopes: string[] };
  t.equal(who.workspace.id, three.workspace.id, 'the chosen workspace');
  t.ok(who.scopes.includes('deals:read'));
  await client.close();
});

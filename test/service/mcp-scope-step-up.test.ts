import { auth, extractWWWAuthenticateParams } from '@modelcontextprotocol/sdk/client/auth.js';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import t from 'tap';
import { TestAgent } from '../helpers/mcp-oauth-agent.js';
import { authorizeWithForms, FormBrowser } from '../helpers/oauth-forms.js';
import { useStack } from '../helpers/shared-stack.js';
import { TEST_PASSWORD } from '../helpers/stack.js';

/**
 * The MCP step-up flow (2025-11-25 "scope challenge") with the MCP SDK's own client and its
 * auth(): a read-only sign-in calls a write tool, the server answers 403 insufficient_scope
 * with the scopes to ask for, the client re-authorizes with them, the consent page offers
 * "Allow changes" (the server was not removed), and the call then succeeds. The SDK's
 * transport (1.32) answers the 403 by refreshing its token, which cannot add a scope, and
 * then gives up; so, as a client must, this one drops its tokens (keeping its registration)
 * and runs the SDK's auth() with the challenge's scope. Older clients and users who could
 * not grant the scope get the tool error with its remedy instead.
 */
const stack = await useStack(t);
const ws = await stack.bootstrap({ org: 'Step Inc', workspace: 'Step', email: 'boss@step.test', defaultCountry: 'US' });
const W = ws.workspace.id;
await stack.addMember(W, 'writer@step.test', ['contacts.write', 'deals.write'], 'all');
const MCP_URL = new URL(`${stack.baseUrl}/mcp/crm`);

/** The user signs in and consents (ticking "Allow changes" or not) at the URL the SDK sent them to. */
async function consent(agent: TestAgent, browser: FormBrowser, allowChanges: boolean): Promise<{ code: string; consentHtml: string }> {
  const url = agent.authorizationUrl;
  if (!url) throw new Error('the client did not ask for authorization');
  agent.authorizationUrl = undefined;
  const { code, consentHtml } = await authorizeWithForms({ url: url.href, baseUrl: stack.baseUrl, clientId: '', redirectUri: '', server: 'crm', challenge: '', email: 'writer@step.test', password: TEST_PASSWORD, allowChanges, browser });
  return { code, consentHtml };
}

async function connected(agent: TestAgent): Promise<{ client: Client; transport: StreamableHTTPClientTransport }> {
  const transport = new StreamableHTTPClientTransport(MCP_URL, { authProvider: agent });
  const client = new Client({ name: 'step-up-test', version: '1.0.0' });
  await client.connect(transport);
  t.teardown(() => client.close());
  return { client, transport };
}

t.test('a read-only sign-in steps up to write with the SDK client, without removing the server', async (t) => {
  const agent = new TestAgent('Step-up Agent');
  const browser = new FormBrowser();
  // First connection: 401, the SDK registers and sends the user to consent; a read-only grant.
  await t.rejects(connected(agent), { message: /Unauthorized/ });
  const first = await consent(agent, browser, false);
  t.notMatch(first.consentHtml, /name="allow_changes"/, 'a first grant offers reading only');
  const initial = new StreamableHTTPClientTransport(MCP_URL, { authProvider: agent });
  await initial.finishAuth(first.code);
  t.notOk(agent.tokens()?.scope?.includes('contacts:write'), `read-only token: ${agent.tokens()?.scope}`);

  let { client } = await connected(agent);
  const before = agent.tokens()?.access_token;
  // The write: 403 insufficient_scope naming the scopes to ask for.
  await t.rejects(client.callTool({ name: 'create_contact', arguments: { first_name: 'Stepped', phone: '+1 415 555 0301' } }), { code: 403 });
  const challenge = await fetch(MCP_URL, {
    method: 'POST',
    headers: { authorization: `Bearer ${agent.tokens()?.access_token}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-11-25' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'create_contact', arguments: { first_name: 'Stepped', phone: '+1 415 555 0301' } } }),
  });
  t.equal(challenge.status, 403);
  const { scope, error } = extractWWWAuthenticateParams(challenge);
  t.equal(error, 'insufficient_scope');
  agent.forgetTokens();
  t.equal(await auth(agent, { serverUrl: MCP_URL, scope }), 'REDIRECT', 'the SDK sends the user to re-authorize');
  const asked = agent.authorizationUrl?.searchParams.get('scope')?.split(' ') ?? [];
  t.ok(asked.includes('contacts:write') && asked.includes('contacts:read'), `the challenge asks for what is held plus the missing scope: ${asked.join(' ')}`);
  t.equal(agent.authorizationUrl?.searchParams.get('client_id'), agent.clientInformation()?.client_id, 'the same client: the server was not removed');
  const second = await consent(agent, browser, true);
  t.match(second.consentHtml, /name="allow_changes"/, 're-authorizing offers "Allow changes"');
  t.equal(await auth(agent, { serverUrl: MCP_URL, authorizationCode: second.code }), 'AUTHORIZED');
  t.match(agent.tokens()?.scope, /contacts:write/);
  t.not(agent.tokens()?.access_token, before, 'a new token');

  ({ client } = await connected(agent));
  const created = (await client.callTool({ name: 'create_contact', arguments: { first_name: 'Stepped', phone: '+1 415 555 0301' } })) as { isError?: boolean; structuredContent?: { id?: string } };
  t.notOk(created.isError, 'the write succeeds after the step-up');
  t.match(created.structuredContent?.id, /^con_/);
});

t.test('clients of older revisions and users who cannot grant the scope get the tool error instead', async (t) => {
  const agent = new TestAgent('Old Agent');
  const browser = new FormBrowser();
  await t.rejects(connected(agent), { message: /Unauthorized/ });
  await new StreamableHTTPClientTransport(MCP_URL, { authProvider: agent }).finishAuth((await consent(agent, browser, false)).code);
  const token = agent.tokens()?.access_token ?? '';
  const post = (version: string) =>
    fetch(MCP_URL, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': version },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'create_contact', arguments: { first_name: 'Old', phone: '+1 415 555 0302' } } }),
    });
  const old = await post('2025-06-18');
  t.equal(old.status, 200, 'a 2025-06-18 client gets a tool result');
  const body = (await old.json()) as { result: { isError: boolean; structuredContent: { code: string; required_scope: string } } };
  // Their role allows it: the remedy is consenting again with "Allow changes".
  t.match(body.result, { isError: true, structuredContent: { code: 'missing_scope', required_scope: 'contacts:write', message: /tick "Allow changes"/, hint: /Allow changes/ } });
  const current = await post('2025-11-25');
  t.equal(current.status, 403);
  t.match(current.headers.get('www-authenticate'), /^Bearer error="insufficient_scope", .*scope="[^"]*contacts:write[^"]*", resource_metadata="[^"]+\/\.well-known\/oauth-protected-resource\/mcp\/crm"/);
  // A version no revision has sorted after 2025-11-25 and drew the challenge; it is the unsupported version it is.
  const notification = await fetch(MCP_URL, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-11-25' },
    body: JSON.stringify({ jsonrpc: '2.0', method: 'tools/call', params: { name: 'create_contact', arguments: { first_name: 'Old', phone: '+1 415 555 0302' } } }),
  });
  t.equal(notification.status, 202, 'a tools/call notification (no id) runs nothing and draws no challenge');
  for (const version of ['2099-01-01', 'zzz']) {
    const unsupported = await post(version);
    t.equal(unsupported.status, 400, `${version}: unsupported`);
    t.match(await unsupported.json(), { error: { message: /Unsupported protocol version/ } });
  }

  // A user whose permissions do not allow contacts:write: no challenge they could not answer.
  await stack.addMember(W, 'viewer@step.test', ['contacts.read'], 'all');
  const viewer = new TestAgent('Viewer Agent');
  await t.rejects(connected(viewer), { message: /Unauthorized/ });
  const url = viewer.authorizationUrl!;
  const { code } = await authorizeWithForms({ url: url.href, baseUrl: stack.baseUrl, clientId: '', redirectUri: '', server: 'crm', challenge: '', email: 'viewer@step.test', password: TEST_PASSWORD });
  await new StreamableHTTPClientTransport(MCP_URL, { authProvider: viewer }).finishAuth(code);
  const { client } = await connected(viewer);
  const refused = (await client.callTool({ name: 'create_contact', arguments: { first_name: 'No', phone: '+1 415 555 0303' } })) as { isError?: boolean; structuredContent?: { code?: string } };
  t.match(refused, { isError: true, structuredContent: { code: 'missing_scope' } });
  const rows = await stack.db.query<{ n: number }>(`select count(*)::int as n from contacts where workspace_id = $1 and first_name in ('Old', 'No')`, [W]);
  t.equal(rows[0]?.n, 0, 'nothing created');
});

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import t from 'tap';
import { launchBrowser } from '../helpers/browser.js';
import { check } from '../helpers/console-pages.js';
import { AGENT_REDIRECT, TestAgent } from '../helpers/mcp-oauth-agent.js';
import { metadataDocument, startMetadataDocumentServer } from '../helpers/metadata-document-server.js';
import { startStack, TEST_PASSWORD } from '../helpers/stack.js';
import { makeTestCertificates } from '../helpers/test-certificates.js';

/**
 * An agent that identifies itself by the URL of its client metadata document instead of
 * registering: the MCP SDK's own client (its provider's `clientMetadataUrl`) sees
 * `client_id_metadata_document_supported`, sends the user to sign in and consent (clicked
 * in headless Chromium), exchanges the code and calls a tool. The document is served over
 * https on 127.0.0.1 with a throwaway CA that the gateway is told to trust; the development
 * switch admits the loopback address.
 */
const REDIRECT = AGENT_REDIRECT;
const DOCUMENT_PATH = '/agents/cimd-agent.json';

const certificateDir = mkdtempSync(path.join(tmpdir(), 'crm-cimd-'));
t.teardown(() => rmSync(certificateDir, { recursive: true, force: true }));
const certificates = makeTestCertificates(certificateDir);
const documents = await startMetadataDocumentServer(certificates);
t.teardown(() => documents.close());
const clientId = documents.serve(DOCUMENT_PATH, { body: (url) => metadataDocument(url, { client_name: 'Docs Agent', redirect_uris: [REDIRECT] }), headers: { 'cache-control': 'max-age=300' } });

const stack = await startStack({ env: { OAUTH_CLIENT_METADATA_ALLOW_PRIVATE_NETWORKS: 'true', NODE_EXTRA_CA_CERTS: certificates.ca } });
t.teardown(() => stack.stop());
const admin = await stack.bootstrap({ org: 'Initech', workspace: 'Docs', email: 'peter@initech.test' });

/** The SDK uses the URL as its client id, without registering, when its provider names one. */
class MetadataDocumentAgent extends TestAgent {
  get clientMetadataUrl(): string {
    return clientId;
  }
}

const browser = await launchBrowser();
t.teardown(() => browser.close());

t.test('the SDK client signs in with its metadata document URL as client_id, consents in Chromium, and calls whoami', async (t) => {
  const agent = new MetadataDocumentAgent('Docs Agent');
  const url = new URL(`${stack.baseUrl}/mcp/crm`);
  const first = new Client({ name: 'cimd-e2e', version: '1.0.0' });
  const firstTransport = new StreamableHTTPClientTransport(url, { authProvider: agent });
  const refused = await first.connect(firstTransport).then(
    () => null,
    (error: unknown) => error,
  );
  t.ok(refused instanceof UnauthorizedError, 'the server asks for authorization');
  t.equal(agent.clientInformation()?.client_id, clientId, 'the client id is the document URL');
  t.equal(agent.authorizationUrl?.searchParams.get('client_id'), clientId, 'and the authorization request carries it');
  t.equal(documents.hits(DOCUMENT_PATH), 0, 'nothing fetched before the browser arrives');

  const context = await browser.newContext();
  t.teardown(() => context.close());
  const page = await context.newPage();
  let resolveCode: (code: string) => void = () => undefined;
  const code = new Promise<string>((r) => (resolveCode = r));
  await page.route(`${REDIRECT}**`, async (route) => {
    resolveCode(new URL(route.request().url()).searchParams.get('code') ?? '');
    await route.fulfill({ status: 200, contentType: 'text/plain', body: 'Done. You can close this tab.' });
  });

  await page.goto(agent.authorizationUrl?.href ?? '');
  await page.getByRole('heading', { name: 'Sign in' }).waitFor();
  await page.getByLabel('E-mail').fill('peter@initech.test');
  await page.getByLabel('Password').fill(TEST_PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('heading', { name: /Connect Docs Agent/ }).waitFor();
  const text = await page.locator('main').innerText();
  t.match(text, /Docs Agent/, "the document's client_name");
  t.match(await page.locator('#client-publisher').innerText(), new RegExp(`published by 127\\.0\\.0\\.1:${new URL(clientId).port}`), "the document URL's host");
  t.match(text, /127\.0\.0\.1:9/, 'and the redirect host');
  await check(t, page, 'oauth-consent-metadata-document');
  await page.getByRole('button', { name: 'Approve' }).click();

  await firstTransport.finishAuth(await code);
  t.ok(agent.tokens()?.access_token, 'tokens for the URL client');
  const clients = await stack.db.query<{ id: string; client_name: string }>('select id, client_name from oauth_clients');
  t.same(clients, [{ id: clientId, client_name: 'Docs Agent' }], 'never registered dynamically: the one client is the document URL');
  const client = new Client({ name: 'cimd-e2e', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(url, { authProvider: agent }));
  t.teardown(() => client.close());
  const who = (await client.callTool({ name: 'whoami', arguments: {} })).structuredContent as Record<string, unknown>;
  t.match(who, {
    credential_kind: 'oauth',
    authorized_by: { type: 'user', id: admin.user.id, email: 'peter@initech.test' },
    workspace: { id: admin.workspace.id, name: 'Docs' },
  });
  t.equal(documents.hits(DOCUMENT_PATH), 1, 'fetched once over https, then reused for max-age (authorize and token exchange)');
});

import { InvalidClientError } from '@modelcontextprotocol/sdk/server/auth/errors.js';
import t from 'tap';
import { ClientMetadataDocuments } from '../../gateway/oauth/client-metadata/client-metadata-documents.js';
import { systemNetwork, type OutboundNetwork } from '../../shared/ssrf/outbound-network.js';
import type { HostResolver } from '../../shared/ssrf/delivery-address.js';
import { authorizeUrl, authorizeWithForms, pkce, registerClient, tokenRequest } from '../helpers/oauth-forms.js';
import { metadataDocument, startMetadataDocumentServer } from '../helpers/metadata-document-server.js';
import { startStack, TEST_PASSWORD } from '../helpers/stack.js';

/**
 * Client ID Metadata Documents (MCP authorization 2025-11-25): an https URL as client_id,
 * the document fetched by the gateway from a server on 127.0.0.1 (the development switch
 * is on in this stack, as it must be for a loopback address). Every refusal is an OAuth
 * error on our own page, never a redirect to a URI the document named. The address checks
 * without the switch run in process, against an injected resolver and socket opener, so
 * no socket to anything but 127.0.0.1 is ever opened.
 */
const stack = await startStack({ env: { OAUTH_CLIENT_METADATA_ALLOW_PRIVATE_NETWORKS: 'true' } });
t.teardown(() => stack.stop());
const documents = await startMetadataDocumentServer();
t.teardown(() => documents.close());
const base = stack.baseUrl;
const REDIRECT = 'http://127.0.0.1:9/oauth/callback';
const { user, workspace } = await stack.bootstrap({ org: 'Metadata', workspace: 'Clients', email: `cimd-${Date.now()}@example.test` });

/** GET /oauth/authorize for `clientId`; a 302 to sign-in means the client was accepted. */
async function authorize(clientId: string, extra: Record<string, string> = {}, redirectUri = REDIRECT) {
  const res = await fetch(authorizeUrl({ baseUrl: base, clientId, redirectUri, server: 'crm', challenge: pkce().challenge }, extra), { redirect: 'manual' });
  return { status: res.status, location: res.headers.get('location'), type: res.headers.get('content-type'), text: unescapeHtml(await res.text()) };
}

/** The page's text as a reader sees it: the quotes of a reason are escaped in the HTML. */
function unescapeHtml(text: string): string {
  return text.replace(/&(#39|#x27|quot|lt|gt|amp);/g, (_, entity: string) => ({ '#39': "'", '#x27': "'", quot: '"', lt: '<', gt: '>', amp: '&' })[entity] ?? '');
}

t.test('the authorization server metadata advertises client id metadata documents', async (t) => {
  const metadata = (await (await fetch(`${base}/.well-known/oauth-authorization-server`)).json()) as Record<string, unknown>;
  t.equal(metadata.client_id_metadata_document_supported, true);
});

t.test('a valid document: sign-in, consent naming the client and its host, code exchange, refresh', async (t) => {
  const clientId = documents.serve('/agents/valid.json', { body: (url) => metadataDocument(url), headers: { 'cache-control': 'no-store' } });
  const { verifier, challenge } = pkce();
  const { code, consentHtml } = await authorizeWithForms({ baseUrl: base, clientId, redirectUri: REDIRECT, server: 'crm', email: user.email, password: TEST_PASSWORD, challenge });
  t.match(consentHtml, /Connect Metadata Agent/, 'the document names the client');
  t.match(consentHtml, new RegExp(`published by <strong>127\\.0\\.0\\.1:${new URL(clientId).port}</strong>`), "and the consent page names the document's host");

  const tokens = await tokenRequest(base, { grant_type: 'authorization_code', client_id: clientId, code, code_verifier: verifier, redirect_uri: REDIRECT, resource: `${base}/mcp/crm` });
  t.equal(tokens.status, 200, JSON.stringify(tokens.body));
  t.equal(tokens.body.token_type, 'Bearer');
  const claims = JSON.parse(Buffer.from(String(tokens.body.access_token).split('.')[1] ?? '', 'base64url').toString()) as Record<string, unknown>;
  t.equal(claims.client_id, clientId, 'the access token names the URL as its client');
  t.equal(claims.ws, workspace.id);

  const stolen = await tokenRequest(base, { grant_type: 'authorization_code', client_id: await registerClient(base, REDIRECT), code, code_verifier: verifier, redirect_uri: REDIRECT });
  t.equal(stolen.status, 400, 'the code is bound to the URL client');

  const refreshed = await tokenRequest(base, { grant_type: 'refresh_token', client_id: clientId, refresh_token: String(tokens.body.refresh_token) });
  t.equal(refreshed.status, 200, JSON.stringify(refreshed.body));

  const [row] = await stack.db.query<{ client_name: string; redirect_uris: string[] }>('select client_name, redirect_uris from oauth_clients where id = $1', [clientId]);
  t.same(row, { client_name: 'Metadata Agent', redirect_uris: [REDIRECT] }, "the client is kept under its URL, with its document's metadata");
  t.ok(documents.hits('/agents/valid.json') >= 3, 'no-store: fetched at authorize and at each token request');
});

t.test('"Allow changes" follows the document URL only, never a look-alike with the same name and redirect URIs', async (t) => {
  const twin = (path: string) => documents.serve(path, { body: (url) => metadataDocument(url, { client_name: 'Twin Agent' }) });
  const consentFor = async (clientId: string) => {
    const { consentHtml } = await authorizeWithForms({ baseUrl: base, clientId, redirectUri: REDIRECT, server: 'crm', email: user.email, password: TEST_PASSWORD, challenge: pkce().challenge });
    return consentHtml;
  };
  const original = twin('/allow/original.json');
  t.notMatch(await consentFor(original), /Allow changes/, 'the first connection is read-only');
  t.notMatch(await consentFor(twin('/allow/look-alike.json')), /Allow changes/, 'another document URL with the same name and redirect URI is not the same client');
  t.notMatch(await consentFor(await registerClient(base, REDIRECT, 'Twin Agent')), /Allow changes/, 'nor is a registration that copies them');
  t.match(await consentFor(original), /Allow changes/, 'the same document URL again is offered changes');
});

t.test('dynamic registration keeps working beside it', async (t) => {
  const clientId = await registerClient(base, REDIRECT, 'Registered Agent');
  const res = await authorize(clientId);
  t.equal(res.status, 302);
  t.match(res.location, /^\/sign-in/);
});

t.test('refused documents: a clear OAuth error on our own page, never a redirect', async (t) => {
  const cases: [string, Parameters<typeof documents.serve>[1], RegExp][] = [
    ['mismatched client_id', { body: (url) => metadataDocument(`${url}?other`) }, /names another client_id .*it must be the document's URL exactly/],
    ['not JSON', { body: '<html>client</html>' }, /is not JSON/],
    ['a JSON array', { body: '[]' }, /is not a JSON object/],
    ['no redirect_uris', { body: (url) => JSON.stringify({ client_id: url, client_name: 'No URIs' }) }, /redirect_uris must be an array/],
    ['a client secret', { body: (url) => metadataDocument(url, { client_secret: 'shh' }) }, /client_secret must not appear/],
    ['a name with a right-to-left override', { body: (url) => metadataDocument(url, { client_name: 'Trusted Agent\u202Etxt.exe' }) }, /client_name must not contain control or formatting characters/],
    ['a secret-based auth method', { body: (url) => metadataDocument(url, { token_endpoint_auth_method: 'client_secret_basic' }) }, /token_endpoint_auth_method must be "none"/],
    ['an http redirect URI off this machine', { body: (url) => metadataDocument(url, { redirect_uris: ['http://agent.example/cb'] }) }, /must use https/],
    ['oversize (with a length)', { body: (url) => metadataDocument(url, { padding: 'x'.repeat(6000) }) }, /larger than 5120 bytes/],
    ['oversize (streamed)', { body: (url) => metadataDocument(url, { padding: 'x'.repeat(6000) }), chunks: 4 }, /larger than 5120 bytes/],
    ['a redirect', { status: 302, headers: { location: documents.serve('/refused/target.json', { body: (url) => metadataDocument(url) }) }, body: '' }, /redirected \(HTTP 302\); redirects are not followed/],
    ['missing', { status: 404, body: 'gone' }, /answered HTTP 404/],
  ];
  for (const [label, response, reason] of cases) {
    const path = `/refused/${label.replace(/\W+/g, '-')}.json`;
    const clientId = documents.serve(path, response);
    const res = await authorize(clientId, {}, label === 'an http redirect URI off this machine' ? 'http://agent.example/cb' : REDIRECT);
    t.equal(res.status, 400, `${label}: 400`);
    t.equal(res.location, null, `${label}: not redirected`);
    t.match(res.type, /^text\/html/, `${label}: our own page`);
    t.match(res.text, reason, `${label}: says why`);
    t.match(res.text, /invalid_client/, `${label}: invalid_client`);
    const token = await tokenRequest(base, { grant_type: 'authorization_code', client_id: clientId, code: 'code_x', code_verifier: 'v'.repeat(43) });
    t.equal(token.status, 400, `${label}: the token endpoint refuses the client too`);
    t.equal(token.body.error, 'invalid_client', `${label}: as invalid_client`);
  }
  t.equal(documents.hits('/refused/target.json'), 0, 'the redirect was not followed');
});

t.test('a redirect_uri the document does not list, even on loopback with another port, is refused on our page', async (t) => {
  const clientId = documents.serve('/agents/listed.json', { body: (url) => metadataDocument(url) });
  for (const uri of ['https://attacker.example/cb', 'http://127.0.0.1:10/oauth/callback', `${REDIRECT}/more`]) {
    const res = await authorize(clientId, {}, uri);
    t.equal(res.status, 400, uri);
    t.equal(res.location, null, `${uri}: not redirected`);
    t.match(res.text, /redirect_uri is not one of the redirect_uris of the client's metadata document/);
  }
  t.equal((await authorize(clientId)).status, 302, 'the listed one is accepted');
});

t.test('client id URLs the draft rules out are refused before any fetch', async (t) => {
  const served = documents.serve('/agents/shape.json', { body: (url) => metadataDocument(url) });
  const origin = new URL(served).origin;
  const cases: [string, RegExp][] = [
    [`${origin}/`, /must have a path/],
    [`${origin}/agents/../agents/shape.json`, /must be written exactly as/],
    [`${origin}/agents/shape.json#frag`, /must not contain a fragment/],
    [`http://user:pw@127.0.0.1:${new URL(served).port}/agents/shape.json`, /user name or password/],
  ];
  for (const [clientId, reason] of cases) {
    const res = await authorize(clientId);
    t.equal(res.status, 400, clientId);
    t.match(res.text, reason, clientId);
  }
  t.equal(documents.hits('/agents/shape.json'), 0, 'nothing was fetched');
});

t.test('a server slower than 5 s is not waited for', async (t) => {
  const clientId = documents.serve('/slow/client.json', 'hang');
  const started = Date.now();
  const res = await authorize(clientId);
  const took = Date.now() - started;
  t.equal(res.status, 400);
  t.match(res.text, /did not answer within 5 s/);
  t.ok(took >= 4_900 && took < 8_000, `gave up after about 5 s (${took} ms)`);
});

t.test('the cache honors max-age, and no-store fetches every time', async (t) => {
  const cached = documents.serve('/cache/max-age.json', { body: (url) => metadataDocument(url), headers: { 'cache-control': 'public, max-age=2' } });
  t.equal((await authorize(cached)).status, 302);
  t.equal((await authorize(cached)).status, 302);
  t.equal(documents.hits('/cache/max-age.json'), 1, 'fetched once within max-age');
  await new Promise((r) => setTimeout(r, 2_200));
  t.equal((await authorize(cached)).status, 302);
  t.equal(documents.hits('/cache/max-age.json'), 2, 'fetched again once max-age passed');

  const uncached = documents.serve('/cache/no-store.json', { body: (url) => metadataDocument(url), headers: { 'cache-control': 'no-store, max-age=600' } });
  await authorize(uncached);
  await authorize(uncached);
  t.equal(documents.hits('/cache/no-store.json'), 2, 'no-store wins over max-age');

  const fixedLater = documents.serve('/cache/fixed.json', { body: 'oops', headers: { 'cache-control': 'max-age=600' } });
  t.equal((await authorize(fixedLater)).status, 400);
  documents.serve('/cache/fixed.json', { body: (url) => metadataDocument(url), headers: { 'cache-control': 'max-age=600' } });
  t.equal((await authorize(fixedLater)).status, 302, 'a refused document is not cached: the fixed one is used at once');
});

/** Names resolved without DNS; every lookup and every socket is recorded. */
const NAMES: Record<string, string[]> = {
  'metadata.example': ['169.254.169.254'],
  'internal.example': ['10.20.30.40'],
  'mixed.example': ['93.184.216.34', '192.168.1.5'],
  'loopback.example': ['127.0.0.1'],
};

function recordingNetwork(): OutboundNetwork & { sockets: string[] } {
  const sockets: string[] = [];
  const resolve: HostResolver = async (hostname) => {
    const addresses = NAMES[hostname];
    if (!addresses) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
    return addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
  };
  return {
    sockets,
    resolve,
    openSocket: (options, secure) => {
      sockets.push(`${String(options.host)}:${String(options.port)}`);
      return systemNetwork.openSocket(options, secure);
    },
  };
}

t.test('without the switch: private, loopback and metadata addresses and http are refused, and no socket is opened', async (t) => {
  const network = recordingNetwork();
  const strict = new ClientMetadataDocuments({ allowPrivateNetworks: false, network });
  const cases: [string, RegExp][] = [
    ['https://metadata.example/client.json', /metadata\.example resolves to a non-public address, which is not allowed: link-local/],
    ['https://internal.example/client.json', /internal\.example resolves to a non-public address, which is not allowed: private/],
    ['https://mixed.example/client.json', /mixed\.example resolves to a non-public address, which is not allowed: private/],
    ['https://loopback.example/client.json', /loopback/],
    ['https://10.0.0.7/client.json', /10\.0\.0\.7 is not a public address: private/],
    ['https://[::1]/client.json', /::1 is not a public address: loopback/],
    ['https://[::ffff:a9fe:a9fe]/client.json', /link-local .*as IPv6/],
    [documents.url('/agents/valid.json'), /must be an https URL/],
    ['https://unknown.example/client.json', /could not be fetched|does not resolve/],
  ];
  for (const [clientId, reason] of cases) {
    const error = await strict.resolve(clientId).then(
      () => null,
      (e: unknown) => e,
    );
    t.type(error, InvalidClientError, clientId);
    t.match((error as Error).message, reason, clientId);
  }
  t.same(network.sockets, [], 'no socket was opened');

  // The switch lifts it, and then exactly the checked address is connected to.
  const lenient = recordingNetwork();
  const dev = new ClientMetadataDocuments({ allowPrivateNetworks: true, network: lenient });
  const url = documents.serve('/switch/client.json', { body: (u) => metadataDocument(u) });
  t.equal((await dev.resolve(url)).client_id, url);
  t.same(lenient.sockets, [`127.0.0.1:${new URL(url).port}`]);
});

t.test('a body that trickles in past the deadline is given up on too', async (t) => {
  const quick = new ClientMetadataDocuments({ allowPrivateNetworks: true, timeoutMs: 1_000 });
  const started = Date.now();
  const error = await quick.resolve(documents.serve('/slow/trickle.json', 'trickle')).then(
    () => null,
    (e: unknown) => e,
  );
  t.type(error, InvalidClientError);
  t.match((error as Error).message, /did not answer within 1 s/);
  t.ok(Date.now() - started < 3_000, 'within about the deadline');
});

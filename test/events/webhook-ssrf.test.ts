import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import { type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import tls from 'node:tls';
import t from 'tap';
import { Webhook } from 'standardwebhooks';
import { systemNetwork, type OutboundNetwork } from '../../shared/ssrf/outbound-network.js';
import { RESPONSE_BODY_LIMIT, sendWebhook } from '../../workers/webhooks/deliveries/send-webhook.js';
import { newWebhookSecret } from '../../workers/webhooks/endpoints/endpoint-secret.js';
import type { HostResolver } from '../../shared/ssrf/delivery-address.js';
import { nonPublicReason } from '../../shared/ssrf/public-address.js';
import { webhookUrlProblem } from '../../workers/webhooks/ssrf/webhook-url-problem.js';
import { makeTestCertificates } from '../helpers/test-certificates.js';
import { switchingProtocolsServer } from '../helpers/switching-protocols-server.js';

/**
 * Outbound safety of webhook deliveries, in process: private and metadata addresses are
 * refused at validation and when connecting, through an injected resolver and socket
 * opener that count every lookup and every socket, so the tests prove that nothing but
 * 127.0.0.1 (with the development switch) is ever connected to.
 */

/** Names the tests resolve, none through real DNS; every lookup and socket is counted. */
const NAMES: Record<string, string[]> = {
  'loopback.example': ['127.0.0.1'],
  'metadata.example': ['169.254.169.254'],
  'mixed.example': ['93.184.216.34', '10.1.2.3'],
  'mapped.example': ['::ffff:127.0.0.1'],
  'public.example': ['93.184.216.34'],
  'public.example.': ['93.184.216.34'],
};

function countingNetwork(): OutboundNetwork & { lookups: string[]; sockets: string[] } {
  const lookups: string[] = [];
  const sockets: string[] = [];
  const resolve: HostResolver = async (hostname) => {
    lookups.push(hostname);
    const addresses = NAMES[hostname];
    if (!addresses) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
    return addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
  };
  return {
    lookups,
    sockets,
    resolve,
    openSocket: (options, secure) => {
      sockets.push(`${String(options.host)}:${String(options.port)}`);
      return systemNetwork.openSocket(options, secure);
    },
  };
}

const secret = newWebhookSecret();
const message = (url: string) => ({ url, id: 'msg_test', payload: JSON.stringify({ object: 'event', id: 'evt_test' }), secret });
const strict = (network: OutboundNetwork) => ({ timeoutMs: 2000, allowPrivateNetworks: false, network });

t.test('address classes: loopback, private, link-local and metadata, CGNAT, multicast, unspecified, and IPv4 inside IPv6 are not public', async (t) => {
  for (const address of ['127.0.0.1', '10.0.0.1', '172.16.5.4', '192.168.1.1', '169.254.169.254', '100.64.0.1', '0.0.0.0', '224.0.0.251', '255.255.255.255']) {
    t.not(nonPublicReason(address), null, address);
  }
  for (const address of ['::1', '[::1]', '::', 'fd12:3456::1', 'fe80::1', 'ff02::1', '::ffff:127.0.0.1', '::ffff:a9fe:a9fe', '64:ff9b::10.0.0.1', '::ffff:0:127.0.0.1', '::ffff:0:a00:1', '64:ff9b:1::8.8.8.8']) {
    t.not(nonPublicReason(address), null, address);
  }
  t.match(nonPublicReason('169.254.169.254'), /metadata/);
  for (const address of ['93.184.216.34', '8.8.8.8', '2606:4700:4700::1111', '::ffff:8.8.8.8', '::ffff:0:8.8.8.8']) t.equal(nonPublicReason(address), null, address);
});

t.test('IPv6 ranges that are not globally reachable: SRv6 segment identifiers, the dummy prefix and the newer documentation prefix', async (t) => {
  // Before, these passed as public: 5f00::/16 (RFC 9602) addresses the segment-routing nodes
  // inside an operator's own network; 100:0:0:1::/64 (RFC 9780) and 3fff::/20 (RFC 9637) are
  // never routed on the Internet.
  for (const [address, reason] of [
    ['5f00::1', /segment routing/],
    ['5f00:1234::abcd', /segment routing/],
    ['100:0:0:1::7', /dummy/],
    ['3fff::1', /documentation/],
    ['3fff:fff:ffff::1', /documentation/],
  ] as const) {
    t.match(nonPublicReason(address), reason, address);
  }
  for (const address of ['5f01::1', '4000::1', '100:0:0:2::1', '3ffe:ffff::1', '2a00:1450::1']) t.equal(nonPublicReason(address), null, address);
  t.match(await webhookUrlProblem('https://[5f00::1]/hook', { resolve: countingNetwork().resolve, allowPrivateNetworks: false }), /not a public address: segment routing/);
});

t.test('validation at create or update: https only, and no host that is or resolves to a non-public address', async (t) => {
  const network = countingNetwork();
  const check = (url: string) => webhookUrlProblem(url, { resolve: network.resolve, allowPrivateNetworks: false });
  t.match(await check('https://127.0.0.1/hook'), /127\.0\.0\.1 is not a public address: loopback/);
  t.match(await check('https://10.0.0.1/hook'), /private/);
  t.match(await check('https://169.254.169.254/latest/meta-data/'), /link-local/);
  t.match(await check('https://[::1]/hook'), /::1 is not a public address: loopback/);
  // The address DNS gave is not named: the URL's author would read the deployment's internal DNS with it.
  t.match(await check('https://loopback.example/hook'), /^is refused: loopback\.example resolves to a non-public address, which is not allowed: loopback$/);
  t.match(await check('https://mixed.example/hook'), /^is refused: mixed\.example resolves to a non-public address, which is not allowed: private/, 'one private answer refuses the name');
  t.notMatch(await check('https://mixed.example/hook'), /10\.1\.2\.3/, 'without naming the address');
  t.match(await check('https://mapped.example/hook'), /loopback/);
  t.match(await check('http://public.example/hook'), /https/);
  t.match(await check('https://user:pw@public.example/hook'), /user name or password/);
  t.equal(await check('https://public.example/hook'), null);
  t.equal(await check('https://not-yet.example/hook'), null, 'a name without an address yet is checked again at delivery');
  t.equal(await webhookUrlProblem('http://127.0.0.1:8080/hook', { resolve: network.resolve, allowPrivateNetworks: true }), null, 'the development switch lifts it');
  t.same(network.sockets, [], 'validation opens no socket');
});

t.test('a url with a fragment is refused: the fragment is never sent, so the endpoint would show an address its deliveries do not go to', async (t) => {
  const check = (url: string) => webhookUrlProblem(url, { resolve: countingNetwork().resolve, allowPrivateNetworks: false });
  for (const url of ['https://public.example/hook#orders', 'https://public.example/hook?v=1#', 'https://public.example#x']) {
    t.match(await check(url), /must not have a fragment/, url);
  }
  t.equal(await check('https://public.example/hook?tag=%23orders'), null, 'an encoded # in the query is no fragment');
});

t.test('validation does not wait on DNS that never answers: such a name is accepted like one that does not resolve yet', async (t) => {
  // Before, creation waited as long as getaddrinfo did (10 s and more), inside its transaction
  // and past the gateway's 5 s deadline: the caller got a 503 while the endpoint was stored.
  const silent: HostResolver = () => new Promise(() => {});
  const started = performance.now();
  const problem = await Promise.race([
    webhookUrlProblem('https://slow-dns.example/hook', { resolve: silent, allowPrivateNetworks: false, lookupMs: 200 }),
    new Promise<string>((resolve) => setTimeout(() => resolve('still waiting after 3 s'), 3_000).unref()),
  ]);
  t.equal(problem, null, 'accepted: every delivery checks the address again');
  t.ok(performance.now() - started < 1_500, 'within the lookup deadline');
});

t.test('at delivery: refused addresses are failed attempts naming the reason, and no socket is opened', async (t) => {
  const cases: [string, RegExp][] = [
    ['https://127.0.0.1/hook', /refused: 127\.0\.0\.1 is not a public address: loopback/],
    ['https://10.0.0.1/hook', /refused: 10\.0\.0\.1 is not a public address: private/],
    ['https://169.254.169.254/latest/meta-data/', /refused: 169\.254\.169\.254 is not a public address: link-local/],
    ['https://[::1]/hook', /refused: ::1 is not a public address: loopback/],
    ['https://loopback.example/hook', /^refused: loopback\.example resolves to a non-public address, which is not allowed: loopback$/],
    ['https://metadata.example/hook', /^refused: metadata\.example resolves to a non-public address, which is not allowed: link-local \(cloud metadata lives at 169\.254\.169\.254\)$/],
    ['https://mixed.example/hook', /^refused: mixed\.example resolves to a non-public address, which is not allowed: private \(RFC 1918\)$/],
    ['http://public.example/hook', /refused: http: is not https/],
    ['https://nowhere.example/hook', /refused: nowhere\.example does not resolve/],
  ];
  for (const [url, reason] of cases) {
    const network = countingNetwork();
    const outcome = await sendWebhook(message(url), strict(network));
    t.equal(outcome.succeeded, false, url);
    t.equal(outcome.statusCode, null, url);
    t.match(outcome.error, reason, url);
    t.same(network.sockets, [], `${url}: no socket opened`);
  }
  // Not stored with the attempt, but kept for the worker's log, where operators read it.
  t.equal((await sendWebhook(message('https://mixed.example/hook'), strict(countingNetwork()))).refusedAddress, '10.1.2.3');
});

t.test('names of the localhost domain are loopback without asking DNS (RFC 6761), at validation and at delivery', async (t) => {
  // Before, such a name went to DNS: one it did not answer was accepted at creation, and
  // each delivery failed as "does not resolve" instead of naming the reason.
  for (const url of ['https://localhost/hook', 'https://localhost./hook', 'https://hooks.localhost/hook', 'https://a.b.LOCALHOST./hook']) {
    const network = countingNetwork();
    const host = new URL(url).hostname;
    t.match(await webhookUrlProblem(url, { resolve: network.resolve, allowPrivateNetworks: false }), /is not a public address: loopback/, url);
    const outcome = await sendWebhook(message(url), strict(network));
    t.match(outcome.error, `refused: ${host} is not a public address: loopback`, url);
    t.same(network.lookups, [], `${url}: no lookup`);
    t.same(network.sockets, [], `${url}: no socket`);
  }
  t.equal(await webhookUrlProblem('https://public.example/hook', { resolve: countingNetwork().resolve, allowPrivateNetworks: false }), null);
});

t.test('a redirect to loopback is a failed attempt and is not followed', async (t) => {
  let targetConnections = 0;
  const target = http.createServer((_req, res) => res.end('should never be reached'));
  target.on('connection', () => targetConnections++);
  await new Promise<void>((r) => target.listen(0, '127.0.0.1', r));
  const targetUrl = `http://127.0.0.1:${(target.address() as AddressInfo).port}/internal`;
  const redirecting = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => res.writeHead(302, { location: targetUrl }).end());
  });
  await new Promise<void>((r) => redirecting.listen(0, '127.0.0.1', r));
  t.teardown(() => {
    target.close();
    redirecting.close();
  });

  const network = countingNetwork();
  // The first hop is on 127.0.0.1, so only with the development switch; the redirect is refused all the same.
  const outcome = await sendWebhook(message(`http://127.0.0.1:${(redirecting.address() as AddressInfo).port}/hook`), { timeoutMs: 2000, allowPrivateNetworks: true, network });
  t.equal(outcome.succeeded, false);
  t.equal(outcome.statusCode, 302);
  t.match(outcome.error, /redirect.*not followed/);
  t.equal(network.sockets.length, 1, 'one socket: to the endpoint itself');
  t.equal(targetConnections, 0, 'the redirect target was never contacted');
});

t.test('strict mode: a public name whose receiver redirects to loopback is a failed attempt, and the redirect target is never connected to', async (t) => {
  const dir = mkdtempSync(path.join(tmpdir(), 'crm-ssrf-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const certificates = makeTestCertificates(dir);
  let targetConnections = 0;
  const target = http.createServer((_req, res) => res.end('should never be reached'));
  target.on('connection', () => targetConnections++);
  await new Promise<void>((r) => target.listen(0, '127.0.0.1', r));
  const targetPort = (target.address() as AddressInfo).port;
  let answer: { status: number; location?: string } = { status: 200 };
  const receiver = https.createServer({ cert: readFileSync(certificates.cert), key: readFileSync(certificates.key) }, (req, res) => {
    req.resume();
    req.on('end', () => res.writeHead(answer.status, answer.location ? { location: answer.location } : {}).end());
  });
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
  t.teardown(() => {
    receiver.closeAllConnections();
    receiver.close();
    target.close();
  });
  const receiverPort = (receiver.address() as AddressInfo).port;
  const ca = readFileSync(certificates.ca);

  /** public.example resolves to a public address; its connections reach the test's receiver on 127.0.0.1 (with the test CA). Every socket is counted. */
  const mappedNetwork = (): OutboundNetwork & { sockets: string[]; servernames: (string | undefined)[] } => {
    const sockets: string[] = [];
    const servernames: (string | undefined)[] = [];
    return {
      sockets,
      servernames,
      resolve: countingNetwork().resolve,
      openSocket: (options, secure) => {
        sockets.push(`${String(options.host)}:${String(options.port)}`);
        servernames.push(options.servername);
        if (!['public.example', 'public.example.'].includes(String(options.host)) || !secure) return systemNetwork.openSocket(options, secure);
        return tls.connect({ host: '127.0.0.1', port: receiverPort, servername: options.servername, ca, checkServerIdentity: (_name, cert) => tls.checkServerIdentity('127.0.0.1', cert) });
      },
    };
  };

  // The mapping works: in strict mode the receiver is reached and a 200 is a success.
  const plain = mappedNetwork();
  t.match(await sendWebhook(message('https://public.example/hook'), strict(plain)), { succeeded: true, statusCode: 200, error: null });
  t.same(plain.sockets, ['public.example:443']);

  for (const [status, location] of [
    [302, `http://127.0.0.1:${targetPort}/internal`],
    [307, `https://127.0.0.1:${targetPort}/internal`],
    [301, 'https://[::1]/internal'],
  ] as const) {
    answer = { status, location };
    const network = mappedNetwork();
    const outcome = await sendWebhook(message('https://public.example/hook'), strict(network));
    t.equal(outcome.succeeded, false, location);
    t.equal(outcome.statusCode, status, location);
    t.match(outcome.error, new RegExp(`redirected \\(HTTP ${status}\\); redirects are not followed`), location);
    t.same(network.sockets, ['public.example:443'], `${location}: one socket, to the endpoint itself`);
  }
  t.equal(targetConnections, 0, 'the redirect target was never contacted');

  // A name written with the root's trailing dot: before, the TLS server name (SNI) kept the dot,
  // which RFC 6066 forbids and receivers' servers do not match to their certificate.
  answer = { status: 200 };
  const dotted = mappedNetwork();
  t.match(await sendWebhook(message('https://public.example./hook'), strict(dotted)), { succeeded: true, statusCode: 200, error: null });
  t.same(dotted.servernames, ['public.example'], 'SNI without the trailing dot');
});

t.test('a delivery is signed per Standard Webhooks, reads at most 4 KB of the answer, and times out', async (t) => {
  let mode: 'ok' | 'big' | 'hang' | 'stall' = 'ok';
  let seen: { headers: http.IncomingHttpHeaders; body: string } | null = null;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      seen = { headers: req.headers, body: Buffer.concat(chunks).toString('utf8') };
      if (mode === 'ok') res.end('thanks');
      else if (mode === 'big') res.end('x'.repeat(1_000_000));
      // stall: answers 200 at once, then sends a byte of body a second and never ends it
      else if (mode === 'stall') {
        res.writeHead(200).write('.');
        const drip = setInterval(() => res.write('.'), 1_000);
        res.on('close', () => clearInterval(drip));
      }
      // hang: never answers
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  t.teardown(() => {
    server.closeAllConnections();
    server.close();
  });
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
  const options = { timeoutMs: 500, allowPrivateNetworks: true };

  const ok = await sendWebhook(message(url), options);
  t.match(ok, { succeeded: true, statusCode: 200, error: null, responseBody: 'thanks' });
  const got = seen as { headers: http.IncomingHttpHeaders; body: string } | null;
  if (!got) throw new Error('nothing received');
  t.equal(got.headers['webhook-id'], 'msg_test');
  t.doesNotThrow(() => new Webhook(secret).verify(got.body, got.headers as Record<string, string>), 'verifies with the standardwebhooks library');
  t.throws(() => new Webhook(newWebhookSecret()).verify(got.body, got.headers as Record<string, string>), 'another secret does not verify');

  mode = 'big';
  const big = await sendWebhook(message(url), options);
  t.equal(big.succeeded, true);
  t.ok(big.responseBody.length <= RESPONSE_BODY_LIMIT, 'at most 4 KB read');

  mode = 'hang';
  const hung = await sendWebhook(message(url), options);
  t.match(hung, { succeeded: false, statusCode: null, error: /timed out after 500 ms/ });
  t.ok(hung.latencyMs < 2000, 'stopped at the timeout');

  // Before, an answer whose body did not end in time kept no status code at all.
  mode = 'stall';
  const stalled = await sendWebhook(message(url), options);
  t.match(stalled, { succeeded: false, statusCode: 200, error: 'timed out after 500 ms reading the response body (HTTP 200)' }, 'a timeout that shows what was answered');
  t.ok(stalled.latencyMs < 2000, 'stopped at the timeout');
});

t.test('deliveries to one endpoint reuse a kept-alive connection to the checked address, and a reused connection the receiver reset is retried on a new one', async (t) => {
  let requests = 0;
  let resetNext = false;
  const server = http.createServer((req, res) => {
    requests++;
    if (resetNext) {
      // The receiver drops the kept-alive connection as the next delivery arrives on it.
      resetNext = false;
      req.socket.destroy();
      return;
    }
    req.resume();
    req.on('end', () => res.end('ok'));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  t.teardown(() => {
    server.closeAllConnections();
    server.close();
  });
  const network = countingNetwork();
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
  const options = { timeoutMs: 2000, allowPrivateNetworks: true, network };

  for (let i = 0; i < 3; i++) t.match(await sendWebhook(message(url), options), { succeeded: true, statusCode: 200 });
  t.equal(network.sockets.length, 1, 'three deliveries, one connection');

  resetNext = true;
  const retried = await sendWebhook(message(url), options);
  t.match(retried, { succeeded: true, statusCode: 200 }, 'delivered on a new connection');
  t.equal(network.sockets.length, 2, 'the reset connection was replaced once');
  t.equal(requests, 5, 'the receiver saw the reset request and the retry');
});

t.test('a receiver answering 101 Switching Protocols: a failed attempt naming it, at once; before, the attempt never ended', async (t) => {
  // Node hands a 101 to 'upgrade' listeners only; without one it dropped the connection and
  // neither answered nor failed the request, and the deadline did not end it either: the
  // attempt (a delivery slot, the CLI's `crm webhooks test`) waited for ever, and its lease
  // running out had another copy send it again, into the same trap.
  const url = `${await switchingProtocolsServer(t)}/hook`;
  const timeoutMs = 1_000;
  const never = new Promise<'never ended'>((resolve) => setTimeout(() => resolve('never ended'), timeoutMs * 5).unref());
  for (let i = 0; i < 2; i++) {
    const outcome = await Promise.race([sendWebhook(message(url), { timeoutMs, allowPrivateNetworks: true }), never]);
    if (outcome === 'never ended') {
      t.fail(`the attempt did not end within ${timeoutMs * 5} ms`);
      return;
    }
    t.match(outcome, { succeeded: false, statusCode: 101, error: /HTTP 101.*switch/i }, `attempt ${i + 1}: failed, saying what was answered`);
    t.ok(outcome.latencyMs < timeoutMs, 'at once, not at the timeout');
  }
});

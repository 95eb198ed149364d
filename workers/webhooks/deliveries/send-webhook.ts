import http from 'node:http';
import https from 'node:https';
import type { Duplex } from 'node:stream';
import { Webhook } from 'standardwebhooks';
import { bareHost, deliveryAddress, RefusedAddressError, type ResolvedAddress } from '../../../shared/ssrf/delivery-address.js';
import { systemNetwork, type OutboundNetwork } from '../../../shared/ssrf/outbound-network.js';
import { pinnedAgentsOf } from './pinned-agents.js';
import type { WebhookHeaders } from '../../../shared/contracts/webhook-payload.js';

/** At most this much of a response is read: receivers answer with a status, not a document. */
export const RESPONSE_BODY_LIMIT = 4096;

/** One Standard Webhooks message for one endpoint. */
export interface WebhookMessage {
  url: string;
  /** `msg_…`: the `webhook-id` header, the same on every attempt. */
  id: string;
  /** The JSON body; signed and sent as is. */
  payload: string;
  /** `whsec_…`. Never logged, nor the signature made with it. */
  secret: string;
  /** A rotated secret still in its overlap: its signature goes beside the current one (the header holds both). */
  previousSecret?: string;
}

export interface SendOptions {
  timeoutMs: number;
  allowPrivateNetworks: boolean;
  network?: OutboundNetwork;
}

export interface AttemptOutcome {
  succeeded: boolean;
  statusCode: number | null;
  latencyMs: number;
  /** Why it failed, for the delivery log; null on success. */
  error: string | null;
  /** What the receiver answered, at most {@link RESPONSE_BODY_LIMIT} bytes. */
  responseBody: string;
  /** The non-public address the endpoint's name resolved to, when that refused the attempt: for the operator's log only, never stored. */
  refusedAddress?: string;
}

/**
 * One signed POST of a message: 2xx is a success; anything else, a redirect (never
 * followed), a timeout, or an address that is not public (checked after DNS, right before
 * connecting, and only that address is connected to) is a failure naming the reason.
 * Connections are kept alive per checked address and reused.
 */
export async function sendWebhook(message: WebhookMessage, options: SendOptions): Promise<AttemptOutcome> {
  const network = options.network ?? systemNetwork;
  const started = performance.now();
  const outcome = (statusCode: number | null, error: string | null, responseBody = ''): AttemptOutcome => ({
    succeeded: error === null,
    statusCode,
    latencyMs: Math.round(performance.now() - started),
    error,
    responseBody,
  });

  let url: URL;
  try {
    url = new URL(message.url);
  } catch {
    return outcome(null, 'the endpoint URL is not valid');
  }
  const secure = url.protocol === 'https:';
  const host = bareHost(url);
  if (!secure && !(options.allowPrivateNetworks && url.protocol === 'http:')) return outcome(null, `refused: ${url.protocol} is not https`);

  const deadline = AbortSignal.timeout(options.timeoutMs);
  let resolved: ResolvedAddress;
  try {
    resolved = await Promise.race([
      deliveryAddress(host, { resolve: network.resolve, allowPrivateNetworks: options.allowPrivateNetworks }),
      new Promise<never>((_, reject) => deadline.addEventListener('abort', () => reject(new Error(`timed out after ${options.timeoutMs} ms resolving ${url.hostname}`)))),
    ]);
  } catch (error) {
    if (error instanceof RefusedAddressError) return { ...outcome(null, `refused: ${error.message}`), refusedAddress: error.resolvedAddress };
    return outcome(null, error instanceof Error ? error.message : String(error));
  }

  const timestamp = new Date();
  const signature = [message.secret, ...(message.previousSecret === undefined ? [] : [message.previousSecret])]
    .map((secret) => new Webhook(secret).sign(message.id, timestamp, message.payload))
    .join(' ');
  const port = Number(url.port || (secure ? 443 : 80));
  // Typed by the contract the OpenAPI document's webhooks section is generated from.
  const signedHeaders: WebhookHeaders = {
    'webhook-id': message.id,
    'webhook-timestamp': String(Math.floor(timestamp.getTime() / 1000)),
    'webhook-signature': signature,
  };
  const request: SignedRequest = {
    url,
    secure,
    host,
    port,
    agent: pinnedAgentsOf(network).agentFor({ secure, host, port, resolved }),
    deadline,
    body: Buffer.from(message.payload, 'utf8'),
    headers: {
      'content-type': 'application/json',
      'user-agent': 'workspace-crm-webhooks/1',
      ...signedHeaders,
    },
  };
  const first = await post(request, options.timeoutMs, outcome);
  // A kept-alive connection the receiver closed just as it was reused: once more, on a new one
  // (what Node's documentation advises for `reusedSocket`); nothing was received on the closed one.
  return first.staleConnection ? (await post(request, options.timeoutMs, outcome)).outcome : first.outcome;
}

interface SignedRequest {
  url: URL;
  secure: boolean;
  host: string;
  port: number;
  agent: http.Agent;
  deadline: AbortSignal;
  body: Buffer;
  headers: Record<string, string>;
}

/** One POST on the agent's connections; `staleConnection` when a reused connection was reset before any answer. */
function post(
  { url, secure, host, port, agent, deadline, body, headers }: SignedRequest,
  timeoutMs: number,
  outcome: (statusCode: number | null, error: string | null, responseBody?: string) => AttemptOutcome,
): Promise<{ outcome: AttemptOutcome; staleConnection?: boolean }> {
  return new Promise((resolve) => {
    let settled = false;
    /** The status once the response's head arrived: a body that then stalls past the deadline still shows what was answered. */
    let answered: number | null = null;
    const timedOut = () => (answered === null ? `timed out after ${timeoutMs} ms` : `timed out after ${timeoutMs} ms reading the response body (HTTP ${answered})`);
    /** Aborted once settled: removes the deadline listener, which would otherwise keep this attempt in memory until the deadline. */
    const settledSignal = new AbortController();
    const finish = (result: AttemptOutcome, staleConnection = false) => {
      if (settled) return;
      settled = true;
      settledSignal.abort();
      resolve({ outcome: result, staleConnection });
    };
    const request = (secure ? https : http).request(
      {
        protocol: url.protocol,
        hostname: host,
        port,
        path: `${url.pathname}${url.search}`,
        method: 'POST',
        // Connections go to the checked address only (see PinnedAgents).
        agent,
        signal: deadline,
        headers: { ...headers, 'content-length': String(body.length) },
      },
      (response) => {
        const status = response.statusCode ?? 0;
        answered = status;
        const chunks: Buffer[] = [];
        let read = 0;
        const done = () => {
          const text = Buffer.concat(chunks).toString('utf8').slice(0, RESPONSE_BODY_LIMIT);
          // Cut off by the deadline before the body ended: a timeout, whatever the status said.
          if (deadline.aborted && read < RESPONSE_BODY_LIMIT && !response.complete) finish(outcome(status, timedOut(), text));
          else if (status >= 200 && status < 300) finish(outcome(status, null, text));
          else if (status >= 300 && status < 400) finish(outcome(status, `redirected (HTTP ${status}); redirects are not followed`, text));
          else finish(outcome(status, `HTTP ${status}`, text));
        };
        response.on('data', (chunk: Buffer) => {
          if (read < RESPONSE_BODY_LIMIT) chunks.push(chunk.subarray(0, RESPONSE_BODY_LIMIT - read));
          read += chunk.length;
          // Enough read: the rest is not waited for (and the connection is not reused).
          if (read >= RESPONSE_BODY_LIMIT) {
            response.destroy();
            done();
          }
        });
        response.on('end', done);
        response.on('error', () => done());
        response.on('close', done);
      },
    );
    // A 101 goes to 'upgrade' listeners only: without one Node drops the connection and the
    // request neither answers nor fails, so the attempt would never end.
    request.on('upgrade', (response: http.IncomingMessage, socket: Duplex) => {
      socket.destroy();
      const status = response.statusCode ?? 101;
      finish(outcome(status, `HTTP ${status}: the receiver switched protocols instead of answering; a 2xx is expected`));
    });
    // Whatever else Node leaves unsettled, an attempt ends by its deadline (the settled outcomes above come first).
    deadline.addEventListener('abort', () => setImmediate(() => finish(outcome(answered, timedOut()))), { once: true, signal: settledSignal.signal });
    request.on('error', (error: Error & { code?: string }) => {
      const stale = request.reusedSocket && answered === null && !deadline.aborted && (error.code === 'ECONNRESET' || error.code === 'EPIPE');
      const text = deadline.aborted ? timedOut() : error.code ? `${error.code}: ${error.message}` : error.message;
      finish(outcome(answered, text), stale);
    });
    request.end(body);
  });
}

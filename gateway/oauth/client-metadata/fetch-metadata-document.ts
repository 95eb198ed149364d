import http from 'node:http';
import https from 'node:https';
import type { Duplex } from 'node:stream';
import { MAX_CLIENT_METADATA_BYTES } from '../../../shared/contracts/oauth.js';
import { bareHost, deliveryAddress, RefusedAddressError, type ResolvedAddress } from '../../../shared/ssrf/delivery-address.js';
import { systemNetwork, type OutboundNetwork } from '../../../shared/ssrf/outbound-network.js';
import { pinnedLookup } from '../../../shared/ssrf/pinned-lookup.js';
import { pinnedSocketOptions } from '../../../shared/ssrf/pinned-socket-options.js';

/** A document that takes longer than this (lookup, connection and body) is not waited for. */
export const FETCH_TIMEOUT_MS = 5_000;
/** A client's metadata is a few hundred bytes; more than this is refused, unread. */
export const MAX_DOCUMENT_BYTES = MAX_CLIENT_METADATA_BYTES;

export interface FetchOptions {
  allowPrivateNetworks: boolean;
  network?: OutboundNetwork;
  timeoutMs?: number;
}

export interface FetchedDocument {
  body: string;
  cacheControl: string | undefined;
}

/** Why a document could not be fetched; the message completes "The client metadata document at URL …". */
export class MetadataFetchError extends Error {
  override name = 'MetadataFetchError';
}

/**
 * GETs a client metadata document the way webhooks are sent: https only (http with the
 * development switch), the host's addresses checked after DNS and only the checked one
 * connected to (so no name can lead inside the deployment), no redirect followed, at most
 * {@link MAX_DOCUMENT_BYTES} read and {@link FETCH_TIMEOUT_MS} waited for.
 */
export async function fetchMetadataDocument(text: string, options: FetchOptions): Promise<FetchedDocument> {
  const network = options.network ?? systemNetwork;
  const timeoutMs = options.timeoutMs ?? FETCH_TIMEOUT_MS;
  const url = new URL(text);
  const secure = url.protocol === 'https:';
  if (!secure && !(options.allowPrivateNetworks && url.protocol === 'http:')) throw new MetadataFetchError(`is refused: ${url.protocol} is not https`);

  const deadline = AbortSignal.timeout(timeoutMs);
  const timedOut = () => new MetadataFetchError(`did not answer within ${timeoutMs / 1000} s`);
  let resolved: ResolvedAddress;
  try {
    resolved = await Promise.race([
      deliveryAddress(bareHost(url), { resolve: network.resolve, allowPrivateNetworks: options.allowPrivateNetworks }),
      new Promise<never>((_, reject) => deadline.addEventListener('abort', () => reject(timedOut()))),
    ]);
  } catch (error) {
    if (error instanceof RefusedAddressError) throw new MetadataFetchError(`is refused: ${error.message}`);
    throw error;
  }

  const host = bareHost(url);
  const port = Number(url.port || (secure ? 443 : 80));
  return new Promise<FetchedDocument>((resolve, reject) => {
    let settled = false;
    /** Aborted once settled: removes the deadline listener, which would otherwise keep this fetch in memory until the deadline. */
    const settledSignal = new AbortController();
    const fail = (error: Error) => {
      if (settled) return;
      settled = true;
      settledSignal.abort();
      reject(error);
    };
    const request = (secure ? https : http).request(
      {
        protocol: url.protocol,
        hostname: host,
        port,
        path: `${url.pathname}${url.search}`,
        method: 'GET',
        lookup: pinnedLookup(resolved),
        // One socket, to the checked address only, never pooled; TLS names the host for SNI and the certificate.
        createConnection: () => network.openSocket(pinnedSocketOptions({ host, port, resolved, secure }), secure),
        signal: deadline,
        headers: { accept: 'application/json', 'user-agent': 'workspace-crm-oauth/1' },
      },
      (response) => {
        const status = response.statusCode ?? 0;
        const refuse = (error: MetadataFetchError) => {
          response.destroy();
          fail(error);
        };
        if (status >= 300 && status < 400) return refuse(new MetadataFetchError(`redirected (HTTP ${status}); redirects are not followed`));
        if (status !== 200) return refuse(new MetadataFetchError(`answered HTTP ${status}`));
        const tooLarge = () => new MetadataFetchError(`is larger than ${MAX_DOCUMENT_BYTES} bytes`);
        if (Number(response.headers['content-length'] ?? 0) > MAX_DOCUMENT_BYTES) return refuse(tooLarge());
        const chunks: Buffer[] = [];
        let read = 0;
        response.on('data', (chunk: Buffer) => {
          read += chunk.length;
          if (read > MAX_DOCUMENT_BYTES) return refuse(tooLarge());
          chunks.push(chunk);
        });
        response.on('end', () => {
          if (settled) return;
          settled = true;
          settledSignal.abort();
          const cacheControl = response.headers['cache-control'];
          resolve({ body: Buffer.concat(chunks).toString('utf8'), cacheControl });
        });
        const brokeOff = () => fail(deadline.aborted ? timedOut() : new MetadataFetchError('broke off while being read'));
        response.on('error', brokeOff);
        // A body cut short (the deadline, the server) may close without an error: never left pending.
        response.on('close', () => {
          if (!response.complete) brokeOff();
        });
      },
    );
    // A 101 goes to 'upgrade' listeners only: without one Node drops the connection and the
    // request neither answers nor fails, so the fetch would never end.
    request.on('upgrade', (response: http.IncomingMessage, socket: Duplex) => {
      socket.destroy();
      fail(new MetadataFetchError(`answered HTTP ${response.statusCode ?? 101}`));
    });
    // Whatever else Node leaves unsettled, the fetch ends by its deadline (the outcomes above come first).
    deadline.addEventListener('abort', () => setImmediate(() => fail(timedOut())), { once: true, signal: settledSignal.signal });
    request.on('error', (error: Error & { code?: string }) => {
      fail(deadline.aborted ? timedOut() : new MetadataFetchError(`could not be fetched (${error.code ?? error.message})`));
    });
    request.end();
  });
}

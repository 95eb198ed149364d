import { InvalidClientError } from '@modelcontextprotocol/sdk/server/auth/errors.js';
import { cacheLifetimeMs } from './cache-lifetime.js';
import { clientIdUrlProblem } from './client-id-url-problem.js';
import type { OutboundNetwork } from '../../../shared/ssrf/outbound-network.js';
import { fetchMetadataDocument, MetadataFetchError } from './fetch-metadata-document.js';
import { parseMetadataDocument, type MetadataDocument } from './metadata-document.js';

/** Documents kept at once; past it the oldest goes, so many client ids cannot grow the gateway's memory. */
const MAX_CACHED = 1000;

export interface ClientMetadataOptions {
  /** OAUTH_CLIENT_METADATA_ALLOW_PRIVATE_NETWORKS: http and private addresses, for development and tests. */
  allowPrivateNetworks: boolean;
  network?: OutboundNetwork;
  timeoutMs?: number;
}

/**
 * The clients that identify themselves by the URL of their metadata document: each
 * document fetched (SSRF-guarded), checked, and kept in this process for as long as its
 * `Cache-Control` allows. Concurrent requests for one URL share one fetch. A refused
 * document is never kept, so a fixed one works at the next attempt.
 */
export class ClientMetadataDocuments {
  private readonly cached = new Map<string, { document: MetadataDocument; until: number }>();
  private readonly fetching = new Map<string, Promise<MetadataDocument>>();

  constructor(private readonly options: ClientMetadataOptions) {}

  /** The checked document of `clientId`, or an `invalid_client` error saying what is wrong with it. */
  async resolve(clientId: string): Promise<MetadataDocument> {
    const problem = clientIdUrlProblem(clientId, { allowHttp: this.options.allowPrivateNetworks });
    if (problem !== null) throw new InvalidClientError(`client_id ${problem} to name a client metadata document`);
    const hit = this.cached.get(clientId);
    if (hit && hit.until > Date.now()) return hit.document;
    this.cached.delete(clientId);
    let pending = this.fetching.get(clientId);
    if (!pending) {
      pending = this.load(clientId).finally(() => this.fetching.delete(clientId));
      this.fetching.set(clientId, pending);
    }
    return pending;
  }

  private async load(clientId: string): Promise<MetadataDocument> {
    const refused = (reason: string) => new InvalidClientError(`The client metadata document at ${clientId} ${reason}`);
    let fetched;
    try {
      fetched = await fetchMetadataDocument(clientId, this.options);
    } catch (error) {
      if (error instanceof MetadataFetchError) throw refused(error.message);
      throw error;
    }
    const parsed = parseMetadataDocument(fetched.body, clientId);
    if ('problem' in parsed) throw refused(parsed.problem);
    const lifetime = cacheLifetimeMs(fetched.cacheControl);
    if (lifetime > 0) {
      if (this.cached.size >= MAX_CACHED) this.cached.delete(this.cached.keys().next().value as string);
      this.cached.set(clientId, { document: parsed.document, until: Date.now() + lifetime });
    }
    return parsed.document;
  }
}

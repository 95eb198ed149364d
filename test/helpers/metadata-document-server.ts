import { readFileSync } from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';

/**
 * How the server answers one path: a status, headers and a body; `hang` for a server that
 * never answers, `trickle` for one that answers but sends its body a byte at a time, forever.
 */
export type DocumentResponse = { status?: number; headers?: Record<string, string>; body: string | ((url: string) => string); chunks?: number } | 'hang' | 'trickle';

/**
 * Client metadata documents on 127.0.0.1, as a client would publish them: each path
 * answers as the test says, every request counted by path. With a certificate it is
 * https (the MCP SDK's client accepts only https URLs as its client id).
 */
export interface MetadataDocumentServer {
  origin: string;
  /** The document's URL: the client id that names it. */
  url(path: string): string;
  serve(path: string, response: DocumentResponse): string;
  hits(path: string): number;
  close(): Promise<void>;
}

export async function startMetadataDocumentServer(tls?: { cert: string; key: string }): Promise<MetadataDocumentServer> {
  const routes = new Map<string, DocumentResponse>();
  const hits = new Map<string, number>();
  let origin = '';
  const handler: http.RequestListener = (req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    hits.set(path, (hits.get(path) ?? 0) + 1);
    const route = routes.get(path);
    if (!route) return void res.writeHead(404).end('not found');
    if (route === 'hang') return;
    if (route === 'trickle') {
      res.writeHead(200, { 'content-type': 'application/json' });
      const timer = setInterval(() => res.write(' '), 200);
      res.on('close', () => clearInterval(timer));
      return;
    }
    const body = typeof route.body === 'function' ? route.body(`${origin}${path}`) : route.body;
    const headers = { 'content-type': 'application/json', ...route.headers };
    if (!route.chunks) return void res.writeHead(route.status ?? 200, { ...headers, 'content-length': String(Buffer.byteLength(body)) }).end(body);
    // Without a length: the body in pieces, as a server streaming it would send it.
    res.writeHead(route.status ?? 200, headers);
    const size = Math.ceil(body.length / route.chunks);
    for (let i = 0; i < body.length; i += size) res.write(body.slice(i, i + size));
    res.end();
  };
  const server = tls ? https.createServer({ cert: readFileSync(tls.cert), key: readFileSync(tls.key) }, handler) : http.createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `${tls ? 'https' : 'http'}://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    url: (path) => `${origin}${path}`,
    serve: (path, response) => {
      routes.set(path, response);
      return `${origin}${path}`;
    },
    hits: (path) => hits.get(path) ?? 0,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** A valid document for the client at `url`. */
export function metadataDocument(url: string, fields: Record<string, unknown> = {}): string {
  return JSON.stringify({
    client_id: url,
    client_name: 'Metadata Agent',
    redirect_uris: ['http://127.0.0.1:9/oauth/callback'],
    grant_types: ['authorization_code', 'refresh_token'],
    response_types: ['code'],
    token_endpoint_auth_method: 'none',
    ...fields,
  });
}

import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A pass-through HTTP proxy on 127.0.0.1 that adds one header (an API token) to every
 * request, for clients that cannot authenticate themselves (the conformance suite).
 * Host and Origin pass through unchanged, so DNS-rebinding checks still see them.
 */
export async function startHeaderProxy(target: string, header: { name: string; value: string }): Promise<{ url: string; close(): Promise<void> }> {
  const upstream = new URL(target);
  const server = http.createServer((req, res) => {
    const proxied = http.request(
      { host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers: { ...req.headers, [header.name.toLowerCase()]: header.value } },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    proxied.on('error', () => {
      res.writeHead(502);
      res.end();
    });
    req.pipe(proxied);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

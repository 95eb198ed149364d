import { isIP } from 'node:net';

/**
 * The base URL a gateway listening on `host`:`port` answers at, without PUBLIC_URL: an
 * address that listens everywhere is reached on loopback, and an IPv6 address is written
 * in brackets (`http://::1:3000` is no URL).
 */
export function localBaseUrl(host: string, port: number): string {
  const reachable = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host;
  return `http://${isIP(reachable) === 6 ? `[${reachable}]` : reachable}:${port}`;
}

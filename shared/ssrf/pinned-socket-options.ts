import net from 'node:net';
import type tls from 'node:tls';
import type { ResolvedAddress } from './delivery-address.js';
import { pinnedLookup } from './pinned-lookup.js';

/**
 * How an outbound call opens its socket: to the address already checked (no second DNS
 * answer), and over TLS naming the host for SNI and the certificate. SNI carries no trailing
 * dot of a fully qualified name (RFC 6066), nor an IP address; the certificate check ignores
 * the dot either way.
 */
export function pinnedSocketOptions(target: { host: string; port: number; resolved: ResolvedAddress; secure: boolean }): net.NetConnectOpts & tls.ConnectionOptions {
  const { host, port, resolved, secure } = target;
  return { host, port, lookup: pinnedLookup(resolved), ...(secure && net.isIP(host) === 0 ? { servername: host.replace(/\.$/, '') } : {}) };
}

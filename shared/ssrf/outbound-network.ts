import net from 'node:net';
import type { Duplex } from 'node:stream';
import tls from 'node:tls';
import { systemResolver, type HostResolver } from './delivery-address.js';

/**
 * How an outbound request (a webhook delivery, a client metadata document) reaches the
 * network; tests inject both parts to see every lookup and every socket.
 */
export interface OutboundNetwork {
  resolve: HostResolver;
  openSocket(options: net.NetConnectOpts & tls.ConnectionOptions, secure: boolean): Duplex;
}

export const systemNetwork: OutboundNetwork = {
  resolve: systemResolver,
  openSocket: (options, secure) => (secure ? tls.connect(options) : net.createConnection(options)),
};

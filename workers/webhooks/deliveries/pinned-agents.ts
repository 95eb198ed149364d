import http from 'node:http';
import https from 'node:https';
import type { Duplex } from 'node:stream';
import type { ResolvedAddress } from '../../../shared/ssrf/delivery-address.js';
import type { OutboundNetwork } from '../../../shared/ssrf/outbound-network.js';
import { pinnedSocketOptions } from '../../../shared/ssrf/pinned-socket-options.js';
import { DELIVERIES_IN_FLIGHT } from './deliveries-in-flight.js';

/** Idle connections close after this long (receivers' own keep-alive timeouts are often 5 s). */
const IDLE_MS = 4_000;
/** Connections per endpoint address, kept open between deliveries (opening and closing them under load cost more). */
const SOCKETS_PER_TARGET = DELIVERIES_IN_FLIGHT;
/** Targets with a pool of their own; the least recently used one is closed beyond this. */
const MAX_TARGETS = 256;

export interface PinnedTarget {
  secure: boolean;
  /** The URL's host: SNI and the certificate are checked against it. */
  host: string;
  port: number;
  /** The address that was checked, after DNS; every connection of the pool goes there. */
  resolved: ResolvedAddress;
}

/**
 * Keep-alive connections for webhook deliveries: one pool per endpoint host, port and
 * CHECKED address, so a connection is only ever reused to the address that passed the
 * SSRF check for it (a later DNS answer picks its own pool). Opening a TCP (and TLS)
 * connection per delivery cost more than the delivery itself under load.
 */
export class PinnedAgents {
  private readonly agents = new Map<string, http.Agent>();

  constructor(private readonly network: OutboundNetwork) {}

  agentFor(target: PinnedTarget): http.Agent {
    const key = `${target.secure ? 'https' : 'http'} ${target.host} ${target.port} ${target.resolved.address}`;
    const known = this.agents.get(key);
    if (known) {
      // Most recently used last: the first entry is the one to close when the map is full.
      this.agents.delete(key);
      this.agents.set(key, known);
      return known;
    }
    const agent = this.newAgent(target);
    this.agents.set(key, agent);
    if (this.agents.size > MAX_TARGETS) {
      const [oldestKey, oldest] = this.agents.entries().next().value as [string, http.Agent];
      this.agents.delete(oldestKey);
      closeIdleSockets(oldest);
    }
    return agent;
  }

  private newAgent({ secure, host, port, resolved }: PinnedTarget): http.Agent {
    const network = this.network;
    const options = { keepAlive: true, maxSockets: SOCKETS_PER_TARGET, maxFreeSockets: SOCKETS_PER_TARGET, timeout: IDLE_MS, scheduling: 'lifo' as const };
    const connect = (): Duplex => network.openSocket(pinnedSocketOptions({ host, port, resolved, secure }), secure);
    // The agent's own connect would resolve the name again; ours goes to the checked address only.
    if (secure) {
      return new (class extends https.Agent {
        override createConnection = connect as unknown as https.Agent['createConnection'];
      })(options);
    }
    return new (class extends http.Agent {
      override createConnection = connect as unknown as http.Agent['createConnection'];
    })(options);
  }
}

/**
 * Closes a pool's idle connections only: a request still in flight on it finishes (its
 * connection then closes after the idle timeout), where `agent.destroy()` would cut it off.
 */
function closeIdleSockets(agent: http.Agent): void {
  for (const sockets of Object.values(agent.freeSockets)) for (const socket of sockets ?? []) socket.destroy();
}

const byNetwork = new WeakMap<OutboundNetwork, PinnedAgents>();

/** The pools of one network (the system's, or one a test injected). */
export function pinnedAgentsOf(network: OutboundNetwork): PinnedAgents {
  let agents = byNetwork.get(network);
  if (!agents) {
    agents = new PinnedAgents(network);
    byNetwork.set(network, agents);
  }
  return agents;
}

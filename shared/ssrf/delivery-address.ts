import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { nonPublicReason } from './public-address.js';

export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

/** Host name to addresses; the system's resolver in service, an injected one in tests. */
export type HostResolver = (hostname: string) => Promise<ResolvedAddress[]>;

export const systemResolver: HostResolver = async (hostname) =>
  (await lookup(hostname, { all: true, verbatim: true })).map(({ address, family }) => ({ address, family: family === 6 ? 6 : 4 }));

/**
 * An address that leads somewhere an outbound request (a webhook, a client metadata fetch)
 * may not go; the message says why. The message never names an address DNS gave: it goes
 * back to whoever chose the URL, who would otherwise map the deployment's internal DNS with
 * it. `resolvedAddress` keeps it for the operator's log.
 */
export class RefusedAddressError extends Error {
  override name = 'RefusedAddressError';

  constructor(
    message: string,
    readonly resolvedAddress?: string,
  ) {
    super(message);
  }
}

/** The host name has no address (yet): refused at delivery, tolerated at creation. */
export class UnresolvedHostError extends RefusedAddressError {
  override name = 'UnresolvedHostError';
}

/** The host of a URL without the brackets of an IPv6 literal. */
export function bareHost(url: URL): string {
  return url.hostname.replace(/^\[|\]$/g, '');
}

/** `localhost` and every name under it, with or without the final dot: loopback by definition (RFC 6761), whatever a resolver answers. */
const LOCALHOST_NAME = /(^|\.)localhost\.?$/i;

/**
 * The address to connect to for `hostname`, after DNS: every address it resolves to must
 * be public (one private answer refuses the name, so a mixed answer cannot slip through),
 * unless private networks are allowed. Callers connect to exactly this address.
 */
export async function deliveryAddress(hostname: string, options: { resolve: HostResolver; allowPrivateNetworks: boolean }): Promise<ResolvedAddress> {
  const literal = isIP(hostname);
  // Refused before DNS: a resolver that does not answer for such a name would otherwise make it look like one not published yet.
  if (!options.allowPrivateNetworks && literal === 0 && LOCALHOST_NAME.test(hostname)) {
    throw new RefusedAddressError(`${hostname} is not a public address: loopback (a localhost name, RFC 6761)`);
  }
  const addresses: ResolvedAddress[] =
    literal !== 0
      ? [{ address: hostname, family: literal === 6 ? 6 : 4 }]
      : await options.resolve(hostname).catch((error: unknown) => {
          throw new UnresolvedHostError(`${hostname} does not resolve (${error instanceof Error && 'code' in error ? String(error.code) : 'lookup failed'})`);
        });
  const first = addresses[0];
  if (!first) throw new UnresolvedHostError(`${hostname} does not resolve`);
  if (options.allowPrivateNetworks) return first;
  for (const { address } of addresses) {
    const reason = nonPublicReason(address);
    if (reason !== null) {
      if (literal !== 0) throw new RefusedAddressError(`${address} is not a public address: ${reason}`);
      throw new RefusedAddressError(`${hostname} resolves to a non-public address, which is not allowed: ${reason}`, address);
    }
  }
  return first;
}

import { IMPOSSIBLE_PORT_PROBLEM, impossiblePort } from '../../../shared/contracts/webhooks.js';
import { bareHost, deliveryAddress, RefusedAddressError, UnresolvedHostError, type HostResolver } from '../../../shared/ssrf/delivery-address.js';

/**
 * How long creation or update waits for DNS. The check runs inside the write's transaction
 * and under the gateway's bus deadline (5 s by default): a name whose DNS does not answer
 * (getaddrinfo gives up only after its own retries, often 10 s and more) would otherwise
 * hold a connection, and commit the endpoint after the caller got a 503 (its secret never
 * shown). Such a name is treated like one that does not resolve yet.
 */
export const URL_CHECK_LOOKUP_MS = 2_000;

/**
 * Why a webhook URL is refused at creation or update, or null: https only, no
 * credentials or fragment in it, a port that can be connected to, and a host that is (or resolves to) a public address, unless
 * private networks are allowed (which also permits http). A name that does not resolve
 * yet (or not within `lookupMs`) is accepted: every delivery checks the address again when it connects.
 */
export async function webhookUrlProblem(
  text: string,
  options: { resolve: HostResolver; allowPrivateNetworks: boolean; lookupMs?: number },
): Promise<string | null> {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    // The parser refuses a port past 65535 without saying why: named, as the API's contract names it.
    return impossiblePort(text) ? IMPOSSIBLE_PORT_PROBLEM : 'must be an absolute https URL';
  }
  if (url.protocol !== 'https:' && !(options.allowPrivateNetworks && url.protocol === 'http:')) return 'must be an https URL';
  if (url.username !== '' || url.password !== '') return 'must not contain a user name or password';
  // Never sent (an HTTP request carries no fragment): kept, the endpoint would show an address its deliveries do not go to.
  if (url.href.includes('#')) return 'must not have a fragment (#…): it is never sent to the receiver';
  if (url.port === '0') return 'must not name port 0, to which no connection can be made';
  const host = bareHost(url);
  const lookupMs = options.lookupMs ?? URL_CHECK_LOOKUP_MS;
  let timer: NodeJS.Timeout | undefined;
  const resolve: HostResolver = (hostname) =>
    Promise.race([
      options.resolve(hostname),
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new UnresolvedHostError(`${hostname} did not resolve within ${lookupMs} ms`)), lookupMs);
      }),
    ]).finally(() => clearTimeout(timer));
  try {
    await deliveryAddress(host, { resolve, allowPrivateNetworks: options.allowPrivateNetworks });
  } catch (error) {
    if (error instanceof UnresolvedHostError) return null;
    if (!(error instanceof RefusedAddressError)) throw error;
    return `is refused: ${error.message}`;
  }
  return null;
}

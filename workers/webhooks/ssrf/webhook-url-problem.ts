import { bareHost, deliveryAddress, RefusedAddressError, UnresolvedHostError, type HostResolver } from '../../../shared/ssrf/delivery-address.js';

/**
 * Why a webhook URL is refused at creation or update, or null: https only, no
 * credentials in it, and a host that is (or resolves to) a public address, unless
 * private networks are allowed (which also permits http). A name that does not resolve
 * yet is accepted: every delivery checks the address again when it connects.
 */
export async function webhookUrlProblem(text: string, options: { resolve: HostResolver; allowPrivateNetworks: boolean }): Promise<string | null> {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return 'must be an absolute https URL';
  }
  if (url.protocol !== 'https:' && !(options.allowPrivateNetworks && url.protocol === 'http:')) return 'must be an https URL';
  if (url.username !== '' || url.password !== '') return 'must not contain a user name or password';
  try {
    await deliveryAddress(bareHost(url), options);
  } catch (error) {
    if (error instanceof UnresolvedHostError) return null;
    if (!(error instanceof RefusedAddressError)) throw error;
    return `is refused: ${error.message}`;
  }
  return null;
}

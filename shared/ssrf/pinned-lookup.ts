import type { LookupFunction } from 'node:net';
import type { ResolvedAddress } from './delivery-address.js';

/** A socket lookup that answers with the address already checked, so the connection goes exactly there (no second DNS answer). */
export function pinnedLookup(resolved: ResolvedAddress): LookupFunction {
  return (_hostname, options, callback) => {
    if (options.all) callback(null, [resolved]);
    else callback(null, resolved.address, resolved.family);
  };
}

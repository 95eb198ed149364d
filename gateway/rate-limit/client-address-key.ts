import { isIP } from 'node:net';
import { ipv6Bytes } from '../../shared/net/ipv6-bytes.js';

/**
 * The key a per-address limit counts a client under. An IPv6 client is given a whole /64
 * (the prefix every subnet has), so counting each address of it alone let one client pick a
 * fresh one for every request: IPv6 addresses count under their /64, an IPv4 address
 * written as IPv6 (`::ffff:192.0.2.1`) as the IPv4 one. Anything else (IPv4, `unknown`) is its own key.
 */
export function clientAddressKey(address: string): string {
  if (isIP(address) !== 6) return address;
  const bytes = ipv6Bytes(address);
  const isMappedIpv4 = bytes.slice(0, 10).every((b) => b === 0) && bytes[10] === 0xff && bytes[11] === 0xff;
  if (isMappedIpv4) return bytes.slice(12).join('.');
  const prefix = [0, 2, 4, 6].map((i) => (((bytes[i] ?? 0) << 8) | (bytes[i + 1] ?? 0)).toString(16));
  return `${prefix.join(':')}::/64`;
}

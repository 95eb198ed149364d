import { isIP } from 'node:net';

/**
 * The key a per-address limit counts a client under. An IPv6 client is given a whole /64
 * (the prefix every subnet has), so counting each address of it alone let one client pick a
 * fresh one for every request: IPv6 addresses count under their /64, an IPv4 address
 * written as IPv6 (`::ffff:192.0.2.1`) as the IPv4 one. Anything else (IPv4, `unknown`) is its own key.
 */
export function clientAddressKey(address: string): string {
  if (isIP(address) !== 6) return address;
  const groups = hextetsOf(address);
  const isMappedIpv4 = groups.slice(0, 5).every((g) => g === 0) && groups[5] === 0xffff;
  if (isMappedIpv4) return [groups[6] ?? 0, groups[7] ?? 0].flatMap((g) => [g >> 8, g & 0xff]).join('.');
  return `${groups
    .slice(0, 4)
    .map((g) => g.toString(16))
    .join(':')}::/64`;
}

/** The eight 16-bit groups of a valid IPv6 address (`::` expanded, a trailing dotted IPv4 part and a zone taken apart). */
function hextetsOf(address: string): number[] {
  const [text = ''] = address.split('%');
  const [head = '', tail] = text.split('::');
  const parts = (side: string): number[] =>
    side === ''
      ? []
      : side.split(':').flatMap((part) => {
          if (!part.includes('.')) return [parseInt(part, 16)];
          const [a = 0, b = 0, c = 0, d = 0] = part.split('.').map(Number);
          return [(a << 8) | b, (c << 8) | d];
        });
  const front = parts(head);
  const back = tail === undefined ? [] : parts(tail);
  return [...front, ...new Array<number>(8 - front.length - back.length).fill(0), ...back];
}

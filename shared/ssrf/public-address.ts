import { BlockList, isIPv4, isIPv6 } from 'node:net';
import { ipv6Bytes } from '../net/ipv6-bytes.js';

/**
 * Addresses an outbound request (a webhook, a client metadata document) must never reach:
 * the deployment's own network and the machine itself (SSRF). Each range with what it is,
 * so a refusal can name the reason.
 */
const IPV4_RANGES: [string, number, string][] = [
  ['0.0.0.0', 8, 'unspecified ("this network")'],
  ['10.0.0.0', 8, 'private (RFC 1918)'],
  ['100.64.0.0', 10, 'shared address space (carrier-grade NAT)'],
  ['127.0.0.0', 8, 'loopback'],
  ['169.254.0.0', 16, 'link-local (cloud metadata lives at 169.254.169.254)'],
  ['172.16.0.0', 12, 'private (RFC 1918)'],
  ['192.0.0.0', 24, 'IETF protocol assignments'],
  ['192.0.2.0', 24, 'documentation'],
  ['192.88.99.0', 24, '6to4 relay anycast'],
  ['192.168.0.0', 16, 'private (RFC 1918)'],
  ['198.18.0.0', 15, 'benchmarking'],
  ['198.51.100.0', 24, 'documentation'],
  ['203.0.113.0', 24, 'documentation'],
  ['224.0.0.0', 4, 'multicast'],
  ['240.0.0.0', 4, 'reserved (and broadcast)'],
];

const IPV6_RANGES: [string, number, string][] = [
  ['::', 128, 'unspecified'],
  ['::1', 128, 'loopback'],
  ['::', 96, 'IPv4-compatible (deprecated)'],
  ['64:ff9b:1::', 48, 'local-use NAT64 (RFC 8215)'],
  ['100::', 64, 'discard-only'],
  ['100:0:0:1::', 64, 'dummy prefix (RFC 9780)'],
  ['2001::', 23, 'IETF protocol assignments'],
  ['2001:db8::', 32, 'documentation'],
  ['3fff::', 20, 'documentation'],
  // Addresses segment-routing nodes inside an operator's own network (RFC 9602).
  ['5f00::', 16, 'segment routing (SRv6) identifiers, not globally reachable'],
  ['fc00::', 7, 'unique local (private)'],
  ['fe80::', 10, 'link-local'],
  ['fec0::', 10, 'site-local (deprecated)'],
  ['ff00::', 8, 'multicast'],
];

function blockListOf(ranges: [string, number, string][], type: 'ipv4' | 'ipv6'): { list: BlockList; reason: string }[] {
  return ranges.map(([network, prefix, reason]) => {
    const list = new BlockList();
    list.addSubnet(network, prefix, type);
    return { list, reason };
  });
}

const V4 = blockListOf(IPV4_RANGES, 'ipv4');
const V6 = blockListOf(IPV6_RANGES, 'ipv6');

/**
 * IPv4 carried inside IPv6 (mapped `::ffff:a.b.c.d`, translated `::ffff:0:a.b.c.d`, NAT64
 * `64:ff9b::a.b.c.d`, 6to4 `2002:AABB:CCDD::`): judged as that IPv4 address.
 */
function embeddedIpv4(address: string): string | null {
  const bytes = ipv6Bytes(address);
  const zeros = (from: number, to: number) => bytes.slice(from, to).every((b) => b === 0);
  const dotted = (at: number) => bytes.slice(at, at + 4).join('.');
  if (zeros(0, 10) && bytes[10] === 0xff && bytes[11] === 0xff) return dotted(12);
  if (zeros(0, 8) && bytes[8] === 0xff && bytes[9] === 0xff && zeros(10, 12)) return dotted(12);
  if (bytes[0] === 0x00 && bytes[1] === 0x64 && bytes[2] === 0xff && bytes[3] === 0x9b && zeros(4, 12)) return dotted(12);
  if (bytes[0] === 0x20 && bytes[1] === 0x02) return dotted(2);
  return null;
}

/**
 * Why `address` (an IP literal) is not a public unicast address a webhook may reach, or
 * null when it is. A text that is no IP address at all is refused too.
 */
export function nonPublicReason(address: string): string | null {
  const bare = address.replace(/^\[|\]$/g, '');
  if (isIPv4(bare)) return V4.find(({ list }) => list.check(bare, 'ipv4'))?.reason ?? null;
  if (isIPv6(bare)) {
    const inner = embeddedIpv4(bare);
    if (inner !== null) {
      const reason = nonPublicReason(inner);
      return reason === null ? null : `${reason}, as IPv6`;
    }
    return V6.find(({ list }) => list.check(bare, 'ipv6'))?.reason ?? null;
  }
  return 'not an IP address';
}

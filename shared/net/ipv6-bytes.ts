/** The 16 bytes of an IPv6 address (`::` expanded, a dotted IPv4 tail read). */
export function ipv6Bytes(address: string): number[] {
  let text = address.split('%')[0] ?? address;
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted?.[1]) {
    const [a, b, c, d] = dotted[1].split('.').map(Number) as [number, number, number, number];
    text = `${text.slice(0, -dotted[1].length)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head = '', tail] = text.split('::');
  const groups = (part: string) => (part === '' ? [] : part.split(':').map((g) => parseInt(g, 16)));
  const front = groups(head);
  const back = tail === undefined ? [] : groups(tail);
  const all = [...front, ...Array<number>(8 - front.length - back.length).fill(0), ...back];
  return all.flatMap((g) => [g >> 8, g & 0xff]);
}

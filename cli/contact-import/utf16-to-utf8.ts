import { UNPAIRED_SURROGATE } from '../../shared/storable-text.js';

/**
 * A streaming converter of UTF-16 (little- or big-endian) bytes to UTF-8. Unlike
 * TextDecoder, which writes U+FFFD for a lone surrogate, it writes the byte 0xFF
 * there, which is never valid UTF-8: the cell holding it is then refused as a cell of
 * invalid UTF-8 is, rather than imported with a replacement character the file never held.
 */
export function utf16ToUtf8(encoding: 'utf-16le' | 'utf-16be'): (bytes: Buffer, last?: boolean) => Buffer {
  // An odd byte, or a high surrogate whose low half may start the next chunk.
  let carry = Buffer.alloc(0);
  return (bytes, last = false) => {
    let units = carry.length > 0 ? Buffer.concat([carry, bytes]) : bytes;
    const oddByteAtEnd = last && units.length % 2 === 1;
    let end = units.length - (units.length % 2);
    if (!last && end >= 2) {
      const lastUnit = encoding === 'utf-16le' ? units.readUInt16LE(end - 2) : units.readUInt16BE(end - 2);
      if (lastUnit >= 0xd800 && lastUnit <= 0xdbff) end -= 2;
    }
    carry = last ? Buffer.alloc(0) : Buffer.from(units.subarray(end));
    if (encoding === 'utf-16be') units = Buffer.from(units.subarray(0, end)).swap16();
    // Node keeps lone surrogates in the string; Buffer.from would turn them into U+FFFD.
    const text = units.toString('utf16le', 0, end) + (oddByteAtEnd ? '\u{d800}' : '');
    if (!/[\ud800-\udfff]/.test(text)) return Buffer.from(text, 'utf8');
    const parts: Buffer[] = [];
    let from = 0;
    for (const match of text.matchAll(UNPAIRED_SURROGATES)) {
      parts.push(Buffer.from(text.slice(from, match.index), 'utf8'), INVALID_UTF8);
      from = match.index + 1;
    }
    parts.push(Buffer.from(text.slice(from), 'utf8'));
    return Buffer.concat(parts);
  };
}

const INVALID_UTF8 = Buffer.from([0xff]);
const UNPAIRED_SURROGATES = new RegExp(UNPAIRED_SURROGATE.source, 'g');

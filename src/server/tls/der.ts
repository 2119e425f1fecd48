/*
 * The few DER (ASN.1 Distinguished Encoding Rules) encodings a certificate needs, and a reader
 * that walks the elements of an encoded one. Written for the certificates this server issues
 * (certificate-factory.ts): no general ASN.1 schema machinery, so issuing loads nothing beyond
 * node:crypto.
 */

/** One encoded DER element (tag, length and contents). */
export type Der = Buffer;

function lengthBytes(length: number): Buffer {
  if (length < 0x80) return Buffer.from([length]);
  const bytes: number[] = [];
  for (let n = length; n > 0; n = Math.floor(n / 256)) bytes.unshift(n & 0xff);
  return Buffer.from([0x80 | bytes.length, ...bytes]);
}

/** An element with `tag` around `contents`. */
export function tlv(tag: number, contents: Buffer): Der {
  return Buffer.concat([Buffer.from([tag]), lengthBytes(contents.length), contents]);
}

/** SEQUENCE of the given elements, in order. */
export function sequence(...items: readonly Der[]): Der {
  return tlv(0x30, Buffer.concat(items));
}

/** SET OF the given elements, sorted by their encodings as DER requires. */
export function setOf(...items: readonly Der[]): Der {
  return tlv(0x31, Buffer.concat([...items].sort(Buffer.compare)));
}

/** A context-specific tag number `n`, constructed (EXPLICIT wrapping) or primitive. */
export function contextTag(n: number, contents: Buffer, constructed: boolean): Der {
  return tlv((constructed ? 0xa0 : 0x80) | n, contents);
}

/** INTEGER from unsigned big-endian bytes (a leading zero is added when the top bit is set). */
export function unsignedInteger(bytes: Buffer): Der {
  let start = 0;
  while (start < bytes.length - 1 && bytes[start] === 0 && (bytes[start + 1]! & 0x80) === 0) start++;
  const minimal = bytes.subarray(start);
  return tlv(0x02, (minimal[0]! & 0x80) !== 0 ? Buffer.concat([Buffer.from([0]), minimal]) : minimal);
}

/** INTEGER of a small non-negative number. */
export function smallInteger(n: number): Der {
  return unsignedInteger(Buffer.from([n]));
}

/** BOOLEAN. */
export function boolean(value: boolean): Der {
  return tlv(0x01, Buffer.from([value ? 0xff : 0x00]));
}

/** NULL. */
export function nullValue(): Der {
  return Buffer.from([0x05, 0x00]);
}

/** OCTET STRING. */
export function octetString(bytes: Buffer): Der {
  return tlv(0x04, bytes);
}

/** BIT STRING of whole bytes (no unused bits). */
export function bitString(bytes: Buffer): Der {
  return tlv(0x03, Buffer.concat([Buffer.from([0]), bytes]));
}

/**
 * BIT STRING of named bits (bit 0 is the first, most significant bit): trailing zero bits are
 * left out, as DER requires for named-bit lists.
 */
export function namedBits(bits: readonly number[]): Der {
  if (bits.length === 0) return tlv(0x03, Buffer.from([0]));
  const highest = Math.max(...bits);
  const bytes = Buffer.alloc(Math.floor(highest / 8) + 1);
  for (const bit of bits) bytes[bit >> 3]! |= 0x80 >> (bit & 7);
  const unused = 7 - (highest & 7);
  return tlv(0x03, Buffer.concat([Buffer.from([unused]), bytes]));
}

/** OBJECT IDENTIFIER from its dotted form. */
export function oid(dotted: string): Der {
  const arcs = dotted.split('.').map(Number);
  const out: number[] = [40 * arcs[0]! + arcs[1]!];
  for (const arc of arcs.slice(2)) {
    const chunk: number[] = [arc & 0x7f];
    for (let n = Math.floor(arc / 128); n > 0; n = Math.floor(n / 128)) chunk.unshift(0x80 | (n & 0x7f));
    out.push(...chunk);
  }
  return tlv(0x06, Buffer.from(out));
}

const PRINTABLE = /^[A-Za-z0-9 '()+,\-./:=?]*$/;

/** A directory string: PrintableString when its characters allow, UTF8String otherwise. */
export function directoryString(value: string): Der {
  return PRINTABLE.test(value) ? tlv(0x13, Buffer.from(value, 'latin1')) : tlv(0x0c, Buffer.from(value, 'utf8'));
}

function two(n: number): string {
  return String(n).padStart(2, '0');
}

/** RFC 5280 Time: UTCTime for the years 1950–2049, GeneralizedTime otherwise, to the second. */
export function time(date: Date): Der {
  const year = date.getUTCFullYear();
  const rest = `${two(date.getUTCMonth() + 1)}${two(date.getUTCDate())}${two(date.getUTCHours())}${two(date.getUTCMinutes())}${two(date.getUTCSeconds())}Z`;
  if (year >= 1950 && year < 2050) return tlv(0x17, Buffer.from(`${two(year % 100)}${rest}`, 'latin1'));
  return tlv(0x18, Buffer.from(`${String(year).padStart(4, '0')}${rest}`, 'latin1'));
}

/** One element read from DER bytes: its tag, its contents and the whole encoding. */
export interface DerElement {
  readonly tag: number;
  readonly contents: Buffer;
  readonly encoded: Buffer;
}

/** Thrown when bytes are not the DER expected. */
export class DerError extends Error {}

/** Reads the element at `offset` of `bytes` (single-byte tags, definite lengths, as DER has). */
export function readElement(bytes: Buffer, offset = 0): DerElement {
  if (offset + 2 > bytes.length) throw new DerError('truncated DER element');
  const tag = bytes[offset]!;
  let length = bytes[offset + 1]!;
  let header = 2;
  if (length & 0x80) {
    const count = length & 0x7f;
    if (count === 0 || count > 4 || offset + 2 + count > bytes.length) throw new DerError('bad DER length');
    length = 0;
    for (let i = 0; i < count; i++) length = length * 256 + bytes[offset + 2 + i]!;
    header += count;
  }
  const end = offset + header + length;
  if (end > bytes.length) throw new DerError('truncated DER element');
  return { tag, contents: bytes.subarray(offset + header, end), encoded: bytes.subarray(offset, end) };
}

/** The elements inside a constructed element's contents, in order. */
export function children(contents: Buffer): DerElement[] {
  const out: DerElement[] = [];
  for (let offset = 0; offset < contents.length; ) {
    const element = readElement(contents, offset);
    out.push(element);
    offset += element.encoded.length;
  }
  return out;
}

/**
 * Protobuf wire-format writer over one growing buffer. Length-delimited values (embedded messages,
 * map entries) are written in place: `fork()` reserves one length byte, `join()` fills it in and,
 * for values of 128 bytes or more, shifts the content right to make room for a longer varint. So
 * every message is written once, with no size pre-pass and no intermediate buffers.
 */

export const WIRE_VARINT = 0;
export const WIRE_FIXED64 = 1;
export const WIRE_LEN = 2;
export const WIRE_START_GROUP = 3;
export const WIRE_END_GROUP = 4;
export const WIRE_FIXED32 = 5;

const TWO_32 = 4294967296;
/** Below this length a string is copied by a JS loop (if ASCII); native UTF-8 encoding costs more per call. */
const SHORT_STRING = 48;

function varintSize(n: number): number {
  let size = 1;
  while (n >= 128) {
    n = Math.floor(n / 128);
    size++;
  }
  return size;
}

export class ProtoWriter {
  private buf: Buffer;
  pos = 0;

  constructor(initialCapacity = 256) {
    this.buf = Buffer.allocUnsafe(initialCapacity);
  }

  private grow(needed: number): void {
    let cap = this.buf.length * 2;
    while (cap < this.pos + needed) cap *= 2;
    const next = Buffer.allocUnsafe(cap);
    this.buf.copy(next, 0, 0, this.pos);
    this.buf = next;
  }

  /** Appends raw bytes. */
  raw(bytes: Uint8Array): void {
    if (this.pos + bytes.length > this.buf.length) this.grow(bytes.length);
    this.buf.set(bytes, this.pos);
    this.pos += bytes.length;
  }

  /** An unsigned varint of a non-negative safe integer. */
  uvarint(n: number): void {
    if (this.pos + 10 > this.buf.length) this.grow(10);
    const buf = this.buf;
    let pos = this.pos;
    while (n > 0x7fffffff) {
      buf[pos++] = (n % 128) | 0x80;
      n = Math.floor(n / 128);
    }
    while (n > 127) {
      buf[pos++] = (n & 127) | 0x80;
      n >>>= 7;
    }
    buf[pos++] = n;
    this.pos = pos;
  }

  /** A signed 64-bit integer held as a `bigint` (beyond 2^53), as protobuf's `int64` varint. */
  bigVarint(n: bigint): void {
    let u = BigInt.asUintN(64, n);
    if (this.pos + 10 > this.buf.length) this.grow(10);
    const buf = this.buf;
    let pos = this.pos;
    while (u > 127n) {
      buf[pos++] = Number(u & 127n) | 0x80;
      u >>= 7n;
    }
    buf[pos++] = Number(u);
    this.pos = pos;
  }

  /**
   * A signed integer (int32 or int64) as protobuf's `int64` varint: negative values are their
   * 64-bit two's complement, ten bytes long (Go encodes negative int32 the same way).
   */
  svarint(n: number): void {
    if (n >= 0) {
      this.uvarint(n);
      return;
    }
    // Split |n| into 32-bit halves and negate as a 64-bit two's complement.
    const abs = -n;
    let lo = abs >>> 0;
    let hi = Math.floor(abs / TWO_32) >>> 0;
    lo = ~lo >>> 0;
    hi = ~hi >>> 0;
    lo = (lo + 1) >>> 0;
    if (lo === 0) hi = (hi + 1) >>> 0;
    if (this.pos + 10 > this.buf.length) this.grow(10);
    const buf = this.buf;
    let pos = this.pos;
    while (hi !== 0) {
      buf[pos++] = (lo & 127) | 0x80;
      lo = ((lo >>> 7) | (hi << 25)) >>> 0;
      hi >>>= 7;
    }
    while (lo > 127) {
      buf[pos++] = (lo & 127) | 0x80;
      lo >>>= 7;
    }
    buf[pos++] = lo;
    this.pos = pos;
  }

  /** A field key: `(field << 3) | wireType`. */
  tag(field: number, wireType: number): void {
    this.uvarint(field * 8 + wireType);
  }

  /** A length-prefixed UTF-8 string. */
  string(s: string): void {
    const n = s.length;
    if (n < SHORT_STRING) {
      if (this.pos + n + 1 > this.buf.length) this.grow(n + 1);
      const buf = this.buf;
      const start = this.pos;
      let i = 0;
      for (; i < n; i++) {
        const c = s.charCodeAt(i);
        if (c > 127) break;
        buf[start + 1 + i] = c;
      }
      if (i === n) {
        buf[start] = n;
        this.pos = start + 1 + n;
        return;
      }
    }
    const len = Buffer.byteLength(s, 'utf8');
    this.uvarint(len);
    if (this.pos + len > this.buf.length) this.grow(len);
    this.buf.write(s, this.pos, len, 'utf8');
    this.pos += len;
  }

  /** Length-prefixed bytes. */
  bytes(b: Uint8Array): void {
    this.uvarint(b.length);
    this.raw(b);
  }

  /** A little-endian IEEE 754 double (wire type 1). */
  double(n: number): void {
    if (this.pos + 8 > this.buf.length) this.grow(8);
    this.buf.writeDoubleLE(n, this.pos);
    this.pos += 8;
  }

  /** A little-endian IEEE 754 float (wire type 5). */
  float(n: number): void {
    if (this.pos + 4 > this.buf.length) this.grow(4);
    this.buf.writeFloatLE(n, this.pos);
    this.pos += 4;
  }

  /** Starts a length-delimited value; pass the result to `join` once its content is written. */
  fork(): number {
    if (this.pos + 1 > this.buf.length) this.grow(1);
    return this.pos++;
  }

  /** Writes the length of the value started at `mark` in front of it. */
  join(mark: number): void {
    const len = this.pos - mark - 1;
    if (len < 128) {
      this.buf[mark] = len;
      return;
    }
    // The length needs more than the one reserved byte: shift the content right.
    const extra = varintSize(len) - 1;
    if (this.pos + extra > this.buf.length) this.grow(extra);
    this.buf.copyWithin(mark + 1 + extra, mark + 1, this.pos);
    const end = this.pos + extra;
    this.pos = mark;
    this.uvarint(len);
    this.pos = end;
  }

  /** A copy of the bytes written so far, exactly sized. */
  finish(): Uint8Array {
    return new Uint8Array(this.buf.subarray(0, this.pos));
  }
}

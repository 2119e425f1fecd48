import { ProtobufDecodeError } from './errors.js';
import { WIRE_END_GROUP, WIRE_FIXED32, WIRE_FIXED64, WIRE_LEN, WIRE_START_GROUP, WIRE_VARINT } from './wire-writer.js';

const TWO_32 = 4294967296;

/** Node's Buffer has an undeclared `utf8Slice`; calling it skips `toString`'s argument handling. */
type SliceableBuffer = Buffer & { utf8Slice?: (start: number, end: number) => string };
const HAS_UTF8_SLICE = typeof (Buffer.prototype as SliceableBuffer).utf8Slice === 'function';

/** Groups are long obsolete; Go's generated code still skips them, with a nesting limit of its own. */
const MAX_GROUP_DEPTH = 100;

/**
 * Protobuf wire-format reader over a byte view. Every read checks bounds against `end` (the end
 * of the innermost length-delimited value) and throws `ProtobufDecodeError` instead of reading
 * past it. Errors carry no path; the message decoder adds it on the way out.
 */
export class ProtoReader {
  readonly buf: Buffer;
  pos: number;
  /** Low and high 32 bits of the last `varint64` read (unsigned). */
  private lo = 0;
  private hi = 0;

  constructor(bytes: Uint8Array, start = 0) {
    this.buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    this.pos = start;
  }

  get length(): number {
    return this.buf.length;
  }

  private truncated(what: string): ProtobufDecodeError {
    return new ProtobufDecodeError('truncated', `unexpected end of data in ${what}`);
  }

  /** An unsigned varint that must fit 32 bits (tags, lengths). */
  uint32(end: number): number {
    const buf = this.buf;
    let pos = this.pos;
    let result = 0;
    let shift = 0;
    while (true) {
      if (pos >= end) throw this.truncated('varint');
      const b = buf[pos++];
      if (shift < 28) result |= (b & 127) << shift;
      else if (shift === 28) {
        if ((b & 127) > 15) throw new ProtobufDecodeError('malformed', 'varint overflows 32 bits');
        result = (result >>> 0) + (b & 127) * 2 ** 28;
      } else if ((b & 127) !== 0) throw new ProtobufDecodeError('malformed', 'varint overflows 32 bits');
      if (b < 128) break;
      shift += 7;
      if (shift >= 70) throw new ProtobufDecodeError('malformed', 'varint longer than 10 bytes');
    }
    this.pos = pos;
    return result >>> 0;
  }

  /** Reads a varint of up to 64 bits into `lo`/`hi`. */
  private varint64(end: number): void {
    const buf = this.buf;
    let pos = this.pos;
    let lo = 0;
    let hi = 0;
    let shift = 0;
    while (true) {
      if (pos >= end) throw this.truncated('varint');
      const b = buf[pos++];
      if (shift < 28) lo |= (b & 127) << shift;
      else if (shift === 28) {
        lo |= (b & 15) << 28;
        hi |= (b & 127) >>> 4;
      } else if (shift < 63) hi |= (b & 127) << (shift - 32);
      else hi |= (b & 1) << 31;
      if (b < 128) break;
      shift += 7;
      if (shift >= 70) throw new ProtobufDecodeError('malformed', 'varint longer than 10 bytes');
    }
    this.pos = pos;
    this.lo = lo >>> 0;
    this.hi = hi >>> 0;
  }

  /**
   * A varint read as a 64-bit two's complement integer (int64): a number, or a `bigint` past
   * ±2^53 (exact, as integers beyond 2^53 are in JSON values).
   */
  int64(end: number): number | bigint {
    const pos = this.pos;
    if (pos < end && this.buf[pos] < 128) {
      this.pos = pos + 1;
      return this.buf[pos];
    }
    this.varint64(end);
    const { lo, hi } = this;
    if (hi < 0x200000) return hi * TWO_32 + lo;
    if (hi & 0x80000000 && ~hi >>> 0 < 0x200000) {
      // At most 2^53 in magnitude, so exact as a number; only -2^53 itself is not safe.
      const v = -((~hi >>> 0) * TWO_32 + (~lo >>> 0) + 1);
      if (Number.isSafeInteger(v)) return v;
    }
    return BigInt.asIntN(64, (BigInt(hi) << 32n) | BigInt(lo));
  }

  /** A varint read as int32: its low 32 bits, signed, as Go truncates it. */
  int32(end: number): number {
    const pos = this.pos;
    if (pos < end && this.buf[pos] < 128) {
      this.pos = pos + 1;
      return this.buf[pos];
    }
    this.varint64(end);
    return this.lo | 0;
  }

  /** A varint read as bool (any non-zero value is true). */
  bool(end: number): boolean {
    const buf = this.buf;
    let pos = this.pos;
    let nonZero = false;
    for (let i = 0; ; i++) {
      if (i >= 10) throw new ProtobufDecodeError('malformed', 'varint longer than 10 bytes');
      if (pos >= end) throw this.truncated('varint');
      const b = buf[pos++];
      if ((b & 127) !== 0) nonZero = true;
      if (b < 128) break;
    }
    this.pos = pos;
    return nonZero;
  }

  /** The length of a length-delimited value, checked against `end`; returns the value's end. */
  delimited(end: number): number {
    const len = this.uint32(end);
    const valueEnd = this.pos + len;
    if (valueEnd > end) throw this.truncated('length-delimited value');
    return valueEnd;
  }

  /** A length-delimited UTF-8 string (invalid sequences become U+FFFD). */
  string(end: number): string {
    const valueEnd = this.delimited(end);
    const start = this.pos;
    this.pos = valueEnd;
    if (start === valueEnd) return '';
    return HAS_UTF8_SLICE
      ? (this.buf as SliceableBuffer).utf8Slice!(start, valueEnd)
      : this.buf.toString('utf8', start, valueEnd);
  }

  /** A length-delimited byte string, as a view (no copy). */
  bytes(end: number): Uint8Array {
    const valueEnd = this.delimited(end);
    const start = this.pos;
    this.pos = valueEnd;
    return this.buf.subarray(start, valueEnd);
  }

  /** A length-delimited byte string, base64-encoded (how JSON carries `[]byte`). */
  base64(end: number): string {
    const valueEnd = this.delimited(end);
    const start = this.pos;
    this.pos = valueEnd;
    return this.buf.toString('base64', start, valueEnd);
  }

  double(end: number): number {
    if (this.pos + 8 > end) throw this.truncated('fixed64 value');
    const v = this.buf.readDoubleLE(this.pos);
    this.pos += 8;
    return v;
  }

  float(end: number): number {
    if (this.pos + 4 > end) throw this.truncated('fixed32 value');
    const v = this.buf.readFloatLE(this.pos);
    this.pos += 4;
    return v;
  }

  /** Skips a value of the given wire type (an unknown field). `field` is needed to match end-group tags. */
  skip(wireType: number, end: number, field: number, depth = 0): void {
    switch (wireType) {
      case WIRE_VARINT:
        this.bool(end);
        return;
      case WIRE_FIXED64:
        if (this.pos + 8 > end) throw this.truncated('fixed64 value');
        this.pos += 8;
        return;
      case WIRE_LEN:
        this.pos = this.delimited(end);
        return;
      case WIRE_FIXED32:
        if (this.pos + 4 > end) throw this.truncated('fixed32 value');
        this.pos += 4;
        return;
      case WIRE_START_GROUP: {
        if (depth >= MAX_GROUP_DEPTH) throw new ProtobufDecodeError('malformed', 'groups nested too deeply');
        while (true) {
          const tag = this.uint32(end);
          const wt = tag & 7;
          if (wt === WIRE_END_GROUP) {
            if (tag >>> 3 !== field) throw new ProtobufDecodeError('malformed', 'mismatched end-group tag');
            return;
          }
          this.skip(wt, end, tag >>> 3, depth + 1);
        }
      }
      case WIRE_END_GROUP:
        throw new ProtobufDecodeError('malformed', 'unexpected end-group tag');
      default:
        throw new ProtobufDecodeError('malformed', `illegal wire type ${wireType}`);
    }
  }
}

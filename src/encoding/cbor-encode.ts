/**
 * CBOR (RFC 8949) encoding of JSON-compatible values, byte for byte as kube-apiserver's CBOR
 * serializer (`k8s.io/apimachinery/pkg/runtime/serializer/cbor`, fxamacker/cbor with kube's
 * options) writes an unstructured object:
 *
 * - the whole item is enclosed in the self-described CBOR tag 55799 (`d9 d9 f7`);
 * - strings, map keys included, are byte strings (major type 2), as Go strings are encoded
 *   with `StringToByteString`;
 * - map keys are sorted bytewise on their encoding (RFC 8949 §4.2.1 core deterministic order:
 *   shorter keys first, then by bytes); lengths and integers in their shortest form;
 * - integers (whole numbers and `bigint`s within int64) as major types 0/1, other numbers as the
 *   shortest of float16/float32/float64 that keeps the value (a `bigint` beyond int64, which
 *   kube could only hold as a float64, as a float); NaN and infinities are rejected.
 *
 * Object members whose value is `undefined` are left out and `undefined` array items become
 * null, as `JSON.stringify` does; `toJSON()` is honoured. Pure and synchronous.
 */
import { CborEncodeError } from './errors.js';

/** The head of tag 55799, kube's CBOR magic number. */
export const SELF_DESCRIBED_CBOR: Readonly<Uint8Array> = Uint8Array.of(0xd9, 0xd9, 0xf7);

const INT64_MAX = 2 ** 63;

class ByteWriter {
  buf: Buffer = Buffer.allocUnsafe(256);
  len = 0;

  ensure(n: number): void {
    if (this.len + n <= this.buf.length) return;
    const next = Buffer.allocUnsafe(Math.max(this.buf.length * 2, this.len + n));
    this.buf.copy(next, 0, 0, this.len);
    this.buf = next;
  }

  byte(b: number): void {
    this.ensure(1);
    this.buf[this.len++] = b;
  }

  bytes(b: Uint8Array): void {
    this.ensure(b.length);
    this.buf.set(b, this.len);
    this.len += b.length;
  }

  /** A major type and its argument in the shortest form. */
  head(major: number, n: number | bigint): void {
    const m = major << 5;
    if (typeof n === 'bigint' || n > 0xffffffff) {
      this.ensure(9);
      this.buf[this.len] = m | 27;
      this.buf.writeBigUInt64BE(BigInt(n), this.len + 1);
      this.len += 9;
    } else if (n < 24) {
      this.byte(m | n);
    } else if (n <= 0xff) {
      this.ensure(2);
      this.buf[this.len] = m | 24;
      this.buf[this.len + 1] = n;
      this.len += 2;
    } else if (n <= 0xffff) {
      this.ensure(3);
      this.buf[this.len] = m | 25;
      this.buf.writeUInt16BE(n, this.len + 1);
      this.len += 3;
    } else {
      this.ensure(5);
      this.buf[this.len] = m | 26;
      this.buf.writeUInt32BE(n, this.len + 1);
      this.len += 5;
    }
  }

  result(): Buffer {
    return this.buf.subarray(0, this.len);
  }
}

const f32 = new Float32Array(1);
const u32 = new Uint32Array(f32.buffer);

/** The float16 bits of a float32-exact value, or undefined when float16 would round it. */
function float16Bits(value: number): number | undefined {
  f32[0] = value;
  const bits = u32[0];
  const sign = (bits >>> 16) & 0x8000;
  const exp = (bits >>> 23) & 0xff;
  const mant = bits & 0x7fffff;
  if (exp === 0 && mant === 0) return sign;
  const e = exp - 127;
  if (e >= -14 && e <= 15) {
    if (mant & 0x1fff) return undefined;
    return sign | ((e + 15) << 10) | (mant >>> 13);
  }
  if (e >= -24 && e < -14) {
    // A float16 subnormal: (1.mant × 2^e) = m × 2^-24 with m < 1024.
    const full = 0x800000 | mant;
    const shift = -e - 1;
    if (full & ((1 << shift) - 1)) return undefined;
    return sign | (full >>> shift);
  }
  return undefined;
}

function writeNumber(w: ByteWriter, n: number): void {
  if (!Number.isFinite(n)) {
    throw new CborEncodeError(`cbor: cannot encode ${Number.isNaN(n) ? 'NaN' : 'infinity'} (rejected like JSON)`);
  }
  if (Number.isInteger(n) && n < INT64_MAX && n >= -INT64_MAX) {
    if (n >= 0) w.head(0, n <= Number.MAX_SAFE_INTEGER ? n : BigInt(n));
    else w.head(1, -1 - n >= Number.MAX_SAFE_INTEGER ? -1n - BigInt(n) : -1 - n);
    return;
  }
  if (Math.fround(n) === n) {
    const half = float16Bits(n);
    if (half !== undefined) {
      w.ensure(3);
      w.buf[w.len] = 0xf9;
      w.buf.writeUInt16BE(half, w.len + 1);
      w.len += 3;
      return;
    }
    w.ensure(5);
    w.buf[w.len] = 0xfa;
    w.buf.writeFloatBE(n, w.len + 1);
    w.len += 5;
    return;
  }
  w.ensure(9);
  w.buf[w.len] = 0xfb;
  w.buf.writeDoubleBE(n, w.len + 1);
  w.len += 9;
}

function writeBigInt(w: ByteWriter, n: bigint): void {
  if (n < -(2n ** 63n) || n >= 2n ** 63n || Number.isSafeInteger(Number(n))) writeNumber(w, Number(n));
  else if (n >= 0n) w.head(0, n);
  else w.head(1, -1n - n);
}

function writeString(w: ByteWriter, s: string): void {
  const len = Buffer.byteLength(s, 'utf8');
  w.head(2, len);
  w.ensure(len);
  w.len += w.buf.write(s, w.len, 'utf8');
}

/** Encoded-key order: kube sorts on the whole encoding, i.e. by byte length, then bytewise. */
function compareKeys(a: Buffer, b: Buffer): number {
  return a.length - b.length || Buffer.compare(a, b);
}

function writeValue(w: ByteWriter, value: unknown, keys: Map<string, Buffer>, depth: number): void {
  if (depth > 10_000) throw new CborEncodeError('cbor: exceeded max nested level');
  if (value === null || value === undefined) {
    w.byte(0xf6);
    return;
  }
  switch (typeof value) {
    case 'boolean':
      w.byte(value ? 0xf5 : 0xf4);
      return;
    case 'number':
      writeNumber(w, value);
      return;
    case 'bigint':
      writeBigInt(w, value);
      return;
    case 'string':
      writeString(w, value);
      return;
    case 'object':
      break;
    default:
      throw new CborEncodeError(`cbor: unsupported type: ${typeof value}`);
  }
  const withJson = value as { toJSON?: () => unknown };
  if (typeof withJson.toJSON === 'function') {
    writeValue(w, withJson.toJSON(), keys, depth + 1);
    return;
  }
  if (Array.isArray(value)) {
    w.head(4, value.length);
    for (const item of value) writeValue(w, item, keys, depth + 1);
    return;
  }
  const obj = value as Record<string, unknown>;
  const entries: [Buffer, unknown][] = [];
  for (const k of Object.keys(obj)) {
    const v = obj[k];
    if (v === undefined || typeof v === 'function' || typeof v === 'symbol') continue;
    let encoded = keys.get(k);
    if (!encoded) {
      const kw = new ByteWriter();
      writeString(kw, k);
      encoded = Buffer.from(kw.result());
      keys.set(k, encoded);
    }
    entries.push([encoded, v]);
  }
  entries.sort((a, b) => compareKeys(a[0], b[0]));
  w.head(5, entries.length);
  for (const [k, v] of entries) {
    w.bytes(k);
    writeValue(w, v, keys, depth + 1);
  }
}

/**
 * Encodes `value` as kube does (see the module comment). `selfDescribed` (default true) puts
 * the tag-55799 prefix in front, as on every response body and watch event kube writes.
 * Throws `CborEncodeError` for NaN, infinities and non-JSON types.
 */
export function encodeCbor(value: unknown, options: { selfDescribed?: boolean } = {}): Buffer {
  const w = new ByteWriter();
  if (options.selfDescribed ?? true) w.bytes(SELF_DESCRIBED_CBOR);
  writeValue(w, value, new Map(), 0);
  return Buffer.from(w.result());
}

/**
 * The first pass of kube's CBOR decoding (fxamacker/cbor's `wellformed`): structure, lengths,
 * nesting and size limits, NaN/infinity and bignum rejection, extraneous data. Errors found
 * here win over those of the decoding pass. Pure.
 */
import { CborDecodeError } from './errors.js';

export interface CborDecodeOptions {
  /** Default 64. */
  readonly maxNestedLevels?: number;
  /** Default 1024. */
  readonly maxArrayElements?: number;
  /** Default 1024. */
  readonly maxMapPairs?: number;
}

export const INT64_MAX = (1n << 63n) - 1n;

export const TYPE_NAMES = [
  'positive integer',
  'negative integer',
  'byte string',
  'UTF-8 text string',
  'array',
  'map',
  'tag',
  'primitives',
];

export const fail = (message: string): CborDecodeError => new CborDecodeError(message);
const unexpectedEof = (): CborDecodeError => fail('unexpected EOF');
export const unacceptable = (type: string, what: string): CborDecodeError =>
  fail(`cbor: data item of cbor type ${type} is not accepted by protocol: ${what}`);

export interface Head {
  readonly major: number;
  readonly ai: number;
  /** The argument; a bigint only past 2^53. */
  readonly arg: number | bigint;
  readonly indefinite: boolean;
}

export class Reader {
  pos = 0;
  readonly view: DataView;
  constructor(
    readonly data: Uint8Array,
    readonly limits: Required<CborDecodeOptions>,
  ) {
    this.view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  }

  /** fxamacker's `wellformedHead` (floats checked for NaN and infinity here, as there). */
  head(): Head {
    if (this.pos >= this.data.length) throw unexpectedEof();
    const ib = this.data[this.pos++];
    const major = ib >> 5;
    const ai = ib & 31;
    const left = this.data.length - this.pos;
    if (ai < 24) return { major, ai, arg: ai, indefinite: false };
    if (ai === 24) {
      if (left < 1) throw unexpectedEof();
      const v = this.data[this.pos++];
      if (major === 7 && v < 32) throw fail(`cbor: invalid simple value ${v} for type primitives`);
      return { major, ai, arg: v, indefinite: false };
    }
    if (ai === 25 || ai === 26 || ai === 27) {
      const size = ai === 25 ? 2 : ai === 26 ? 4 : 8;
      if (left < size) throw unexpectedEof();
      let arg: number | bigint;
      if (ai === 25) arg = this.view.getUint16(this.pos);
      else if (ai === 26) arg = this.view.getUint32(this.pos);
      else {
        const big = this.view.getBigUint64(this.pos);
        arg = big <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(big) : big;
      }
      if (major === 7) checkFloat(this.float(ai, this.pos));
      this.pos += size;
      return { major, ai, arg, indefinite: false };
    }
    if (ai === 31) {
      if (major === 0 || major === 1 || major === 6) {
        throw fail(`cbor: invalid additional information 31 for type ${TYPE_NAMES[major]}`);
      }
      if (major === 7) throw fail('cbor: unexpected "break" code');
      return { major, ai, arg: 0, indefinite: true };
    }
    throw fail(`cbor: invalid additional information ${ai} for type ${TYPE_NAMES[major]}`);
  }

  float(ai: number, at: number): number {
    if (ai === 25) return half(this.view.getUint16(at));
    if (ai === 26) return this.view.getFloat32(at);
    return this.view.getFloat64(at);
  }
}

function half(bits: number): number {
  const sign = bits & 0x8000 ? -1 : 1;
  const exp = (bits >> 10) & 0x1f;
  const mant = bits & 0x3ff;
  if (exp === 0) return sign * mant * 2 ** -24;
  if (exp === 31) return mant ? Number.NaN : sign * Number.POSITIVE_INFINITY;
  return sign * (1 + mant / 1024) * 2 ** (exp - 15);
}

function checkFloat(f: number): void {
  if (Number.isNaN(f)) throw unacceptable('primitives', 'floating-point NaN');
  if (!Number.isFinite(f)) throw unacceptable('primitives', 'floating-point infinity');
}

/** A length argument; past int64 Go reports an overflow, otherwise limits and EOF apply. */
function length(major: number, arg: number | bigint): number {
  if (typeof arg === 'bigint' && arg > INT64_MAX) {
    const consequence = major === 2 || major === 3 ? 'causing' : 'it would cause';
    throw fail(`cbor: ${TYPE_NAMES[major]} length ${arg} is too large, ${consequence} integer overflow`);
  }
  return typeof arg === 'bigint' ? Number.MAX_SAFE_INTEGER : arg;
}

const isBreak = (r: Reader): boolean => {
  if (r.pos >= r.data.length) throw unexpectedEof();
  return r.data[r.pos] === 0xff;
};

/** fxamacker's `wellformedInternal`: structure, lengths, limits, bignum rejection. */
export function wellFormed(r: Reader, depth: number): void {
  const h = r.head();
  const { limits } = r;
  switch (h.major) {
    case 2:
    case 3:
      if (h.indefinite) {
        while (!isBreak(r)) {
          const ib = r.data[r.pos];
          if (ib >> 5 !== h.major) {
            throw fail(`cbor: wrong element type ${TYPE_NAMES[ib >> 5]} for indefinite-length ${TYPE_NAMES[h.major]}`);
          }
          if ((ib & 31) === 31)
            throw fail(`cbor: indefinite-length ${TYPE_NAMES[h.major]} chunk is not definite-length`);
          wellFormed(r, depth);
        }
        r.pos++;
        return;
      }
      {
        const n = length(h.major, h.arg);
        if (r.data.length - r.pos < n) throw unexpectedEof();
        r.pos += n;
      }
      return;
    case 4:
    case 5: {
      if (++depth > limits.maxNestedLevels) throw fail(`cbor: exceeded max nested level ${limits.maxNestedLevels}`);
      const isArray = h.major === 4;
      const tooMany = () =>
        isArray
          ? fail(`cbor: exceeded max number of elements ${limits.maxArrayElements} for CBOR array`)
          : fail(`cbor: exceeded max number of key-value pairs ${limits.maxMapPairs} for CBOR map`);
      if (h.indefinite) {
        let i = 0;
        while (!isBreak(r)) {
          wellFormed(r, depth);
          i++;
          if (isArray ? i > limits.maxArrayElements : i % 2 === 0 && i / 2 > limits.maxMapPairs) throw tooMany();
        }
        r.pos++;
        if (!isArray && i % 2 === 1) throw fail('cbor: unexpected "break" code');
        return;
      }
      const n = length(h.major, h.arg);
      if (n > (isArray ? limits.maxArrayElements : limits.maxMapPairs)) throw tooMany();
      for (let i = 0; i < (isArray ? n : 2 * n); i++) wellFormed(r, depth);
      return;
    }
    case 6: {
      let tag = typeof h.arg === 'bigint' ? -1 : h.arg;
      for (;;) {
        if (r.pos >= r.data.length) throw unexpectedEof();
        if (tag === 2 || tag === 3) throw unacceptable('tag', 'bignum');
        if (r.data[r.pos] >> 5 !== 6) break;
        const next = r.head();
        tag = typeof next.arg === 'bigint' ? -1 : next.arg;
        if (++depth > limits.maxNestedLevels) throw fail(`cbor: exceeded max nested level ${limits.maxNestedLevels}`);
      }
      wellFormed(r, depth);
      return;
    }
    default:
      return;
  }
}

/**
 * Decoding of one CBOR data item into a JSON-compatible value with the options kube-apiserver's
 * CBOR decoder uses (fxamacker/cbor `Decode` mode in k8s.io/apimachinery): duplicate map keys,
 * invalid UTF-8, NaN, infinities, bignums and simple values other than false/true/null are
 * rejected; map keys must be strings (text or byte; null reads as ""); byte strings become
 * strings; integers must fit int64 (past 2^53 they are exact `bigint`s, as JSON numbers are);
 * unrecognized tags (55799 included) give their content; at most 64 levels of nesting and 1024
 * elements per array or map. As in fxamacker, the whole input is first checked for
 * well-formedness, then decoded; messages are fxamacker's. Pure.
 */
import {
  type CborDecodeOptions,
  fail,
  type Head,
  INT64_MAX,
  Reader,
  TYPE_NAMES,
  unacceptable,
  wellFormed,
} from './cbor-wellformed.js';
import type { CborDecodeError } from './errors.js';
import { decodeUtf8Lenient } from './utf8.js';

export type { CborDecodeOptions } from './cbor-wellformed.js';

const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** The content a time tag requires, checked while decoding (fxamacker's `validBuiltinTag`). */
function timeTagError(tag: number, contentByte: number): CborDecodeError | undefined {
  const t = contentByte >> 5;
  if (tag === 0 && t !== 3) return fail(`cbor: tag number 0 must be followed by text string, got ${TYPE_NAMES[t]}`);
  if (tag === 1 && t !== 0 && t !== 1 && (contentByte < 0xf9 || contentByte > 0xfb)) {
    return fail(`cbor: tag number 1 must be followed by integer or floating-point number, got ${TYPE_NAMES[t]}`);
  }
  return undefined;
}

/** A decoded value, or the first error met inside it (decoding goes on, as fxamacker's does). */
interface Decoded {
  readonly v: unknown;
  readonly e?: CborDecodeError;
}

type LaterEncoding = 'base64url' | 'base64' | 'hex' | undefined;

function stringBytes(r: Reader, h: Head): Uint8Array {
  if (!h.indefinite) {
    const n = h.arg as number;
    const bytes = r.data.subarray(r.pos, r.pos + n);
    r.pos += n;
    return bytes;
  }
  const chunks: Uint8Array[] = [];
  while (r.data[r.pos] !== 0xff) chunks.push(stringBytes(r, r.head()));
  r.pos++;
  return Buffer.concat(chunks);
}

function integer(h: Head): Decoded {
  const big = typeof h.arg === 'bigint' ? h.arg : BigInt(h.arg);
  if (big > INT64_MAX) {
    const shown = h.major === 0 ? `${big}` : `-${big + 1n}`;
    const type = TYPE_NAMES[h.major];
    return {
      v: 0,
      e: fail(`cbor: cannot unmarshal ${type} into Go value of type int64 (${shown} overflows Go's int64)`),
    };
  }
  if (typeof h.arg === 'number' && h.arg < Number.MAX_SAFE_INTEGER) return { v: h.major === 0 ? h.arg : -1 - h.arg };
  const v = h.major === 0 ? big : -1n - big;
  // Past 2^53 the int64 stays exact, as a bigint.
  return { v: Number.isSafeInteger(Number(v)) ? Number(v) : v };
}

function primitive(r: Reader, h: Head): Decoded {
  if (h.ai >= 25 && h.ai <= 27) {
    const size = h.ai === 25 ? 2 : h.ai === 26 ? 4 : 8;
    return { v: r.float(h.ai, r.pos - size) };
  }
  const simple = h.arg as number;
  if (simple === 20) return { v: false };
  if (simple === 21) return { v: true };
  if (simple === 22) return { v: null };
  return { v: null, e: unacceptable('primitives', `simple value ${simple} is not recognized`) };
}

/** Go's `time.Unix(...).Format(time.RFC3339Nano)` in UTC for an epoch-seconds tag. */
function epochToRfc3339(seconds: number): string | CborDecodeError {
  if (seconds < -62_167_219_200 || seconds >= 253_402_300_800) {
    return fail(
      'cbor: decoded time cannot be represented in RFC3339 format with sub-second precision: ' +
        'Time.MarshalText: year outside of range [0,9999]',
    );
  }
  const whole = Math.floor(seconds);
  const iso = new Date(whole * 1000).toISOString().replace(/\.\d{3}Z$/, '');
  const nanos = Math.round((seconds - whole) * 1e9);
  const frac = nanos ? `.${String(nanos).padStart(9, '0').replace(/0+$/, '')}` : '';
  return `${iso}${frac}Z`;
}

function item(r: Reader, later: LaterEncoding): Decoded {
  const h = r.head();
  switch (h.major) {
    case 0:
    case 1:
      return integer(h);
    case 2: {
      const bytes = Buffer.from(stringBytes(r, h));
      return { v: later ? bytes.toString(later) : decodeUtf8Lenient(bytes) };
    }
    case 3: {
      const bytes = stringBytes(r, h);
      try {
        return { v: utf8.decode(bytes) };
      } catch {
        return { v: '', e: fail('cbor: invalid UTF-8 string') };
      }
    }
    case 4:
      return array(r, h, later);
    case 5:
      return map(r, h, later);
    case 6: {
      const tag = typeof h.arg === 'bigint' ? -1 : h.arg;
      const nested: LaterEncoding = tag === 21 ? 'base64url' : tag === 22 ? 'base64' : tag === 23 ? 'hex' : later;
      const tagError = timeTagError(tag, r.data[r.pos]);
      if (tagError) {
        skip(r);
        return { v: null, e: tagError };
      }
      const content = item(r, nested);
      if (tag === 1 && (typeof content.v === 'number' || typeof content.v === 'bigint')) {
        const time = epochToRfc3339(Number(content.v));
        return typeof time === 'string' ? { v: time, e: content.e } : { v: null, e: content.e ?? time };
      }
      return content;
    }
    default:
      return primitive(r, h);
  }
}

function array(r: Reader, h: Head, later: LaterEncoding): Decoded {
  const out: unknown[] = [];
  let err: CborDecodeError | undefined;
  const n = h.indefinite ? Number.POSITIVE_INFINITY : (h.arg as number);
  for (let i = 0; i < n; i++) {
    if (h.indefinite && r.data[r.pos] === 0xff) break;
    const d = item(r, later);
    err ??= d.e;
    out.push(d.v);
  }
  if (h.indefinite) r.pos++;
  return { v: out, e: err };
}

/** Skips one well-formed item. */
function skip(r: Reader): void {
  item(r, undefined);
}

function mapKey(r: Reader, later: LaterEncoding): Decoded {
  const ib = r.data[r.pos];
  const major = ib >> 5;
  if (ib === 0xf6) {
    r.pos++;
    return { v: '' };
  }
  const typeError = (type: string) => fail(`cbor: cannot unmarshal ${type} into Go value of type string`);
  if (major === 6) {
    let content = r.pos;
    while (r.data[content] >> 5 === 6) {
      const saved = r.pos;
      r.pos = content;
      r.head();
      content = r.pos;
      r.pos = saved;
    }
    const d = item(r, later);
    if (d.e || typeof d.v === 'string') return d;
    return { v: undefined, e: typeError(TYPE_NAMES[r.data[content] >> 5]) };
  }
  if (major !== 2 && major !== 3) {
    const ai = ib & 31;
    if (major === 7 && (ai < 20 || ai === 23 || ai === 24)) return primitive(r, r.head());
    skip(r);
    return { v: undefined, e: typeError(TYPE_NAMES[major]) };
  }
  return item(r, later);
}

function map(r: Reader, h: Head, later: LaterEncoding): Decoded {
  const out: Record<string, unknown> = {};
  const seen = new Set<string>();
  let err: CborDecodeError | undefined;
  const n = h.indefinite ? Number.POSITIVE_INFINITY : (h.arg as number);
  let i = 0;
  for (; i < n; i++) {
    if (h.indefinite && r.data[r.pos] === 0xff) break;
    const k = mapKey(r, later);
    if (k.e) {
      err ??= k.e;
      skip(r);
      continue;
    }
    const v = item(r, later);
    if (v.e) {
      err ??= v.e;
      continue;
    }
    const key = k.v as string;
    if (seen.has(key)) {
      // fxamacker reports the duplicate over any earlier error and skips the rest of the map.
      err = fail(`cbor: found duplicate map key "${key}" at map element index ${i}`);
      for (i++; i < n; i++) {
        if (h.indefinite && r.data[r.pos] === 0xff) break;
        skip(r);
        skip(r);
      }
      break;
    }
    seen.add(key);
    // defineProperty keeps a "__proto__" key an own data property.
    Object.defineProperty(out, key, { value: v.v, enumerable: true, writable: true, configurable: true });
  }
  if (h.indefinite) r.pos++;
  return { v: out, e: err };
}

/** The decoding limits of `options`, kube's defaults where it names none. */
export function limitsOf(options: CborDecodeOptions): Required<CborDecodeOptions> {
  return {
    maxNestedLevels: options.maxNestedLevels ?? 64,
    maxArrayElements: options.maxArrayElements ?? 1024,
    maxMapPairs: options.maxMapPairs ?? 1024,
  };
}

/** Checks and decodes the item at `r.pos`; throws the first problem. */
function checkedItem(r: Reader): unknown {
  const start = r.pos;
  wellFormed(r, 0);
  const end = r.pos;
  r.pos = start;
  const d = item(r, undefined);
  if (d.e) throw d.e;
  r.pos = end;
  return d.v;
}

/**
 * Decodes exactly one data item (a request body). Throws `CborDecodeError`: `EOF` for empty
 * input, `unexpected EOF` when truncated, `cbor: N bytes of extraneous data starting at index M`
 * after a complete item, and the rejections listed in the module comment.
 */
export function decodeCbor(data: Uint8Array, options: CborDecodeOptions = {}): unknown {
  if (data.length === 0) throw fail('EOF');
  const r = new Reader(data, limitsOf(options));
  const start = r.pos;
  wellFormed(r, 0);
  if (r.pos !== data.length) {
    throw fail(`cbor: ${data.length - r.pos} bytes of extraneous data starting at index ${r.pos}`);
  }
  r.pos = start;
  const d = item(r, undefined);
  if (d.e) throw d.e;
  return d.v;
}

/** Decodes an RFC 8742 CBOR sequence (`application/cbor-seq`, a watch stream) item by item. */
export function decodeCborSequence(data: Uint8Array, options: CborDecodeOptions = {}): unknown[] {
  const r = new Reader(data, limitsOf(options));
  const out: unknown[] = [];
  while (r.pos < data.length) out.push(checkedItem(r));
  return out;
}

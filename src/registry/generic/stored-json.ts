import { partBytes } from '../../encoding/json-encode.js';

/**
 * Byte-level work on stored objects (compact JSON without `metadata.resourceVersion`, see
 * stored-object.ts): where the top-level `metadata` object ends (where a response writes the
 * resourceVersion in), and whether Go's encoder would write the bytes differently. The scanner assumes well-formed JSON
 * (the value was decoded once when the watch cache took it); UTF-8 continuation bytes are all
 * >= 0x80, so quotes, backslashes and brackets are found byte by byte.
 */

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const COMMA = 0x2c;
const COLON = 0x3a;

const METADATA_KEY = Buffer.from('"metadata"');
const RESOURCE_VERSION_KEY = Buffer.from('"resourceVersion"');

/** Where a resourceVersion goes: before the closing brace of `metadata`, after a comma unless empty. */
export interface MetadataEnd {
  /** Offset of the closing brace of the top-level `metadata` object. */
  readonly close: number;
  /** True when `metadata` has no member (no comma before the inserted one). */
  readonly empty: boolean;
}

/** Index of the quote closing the string whose opening quote is at `open`. */
function stringEnd(b: Uint8Array, open: number): number {
  let i = open + 1;
  for (;;) {
    const q = b.indexOf(QUOTE, i);
    if (q < 0) return b.length;
    // Escaped when preceded by an odd number of backslashes.
    let slashes = 0;
    for (let k = q - 1; k > open && b[k] === BACKSLASH; k--) slashes++;
    if (slashes % 2 === 0) return q;
    i = q + 1;
  }
}

function isWhitespace(c: number | undefined): boolean {
  return c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;
}

function skipWhitespace(b: Uint8Array, i: number): number {
  while (i < b.length && isWhitespace(b[i])) i++;
  return i;
}

/** Index of the bracket closing the object or array opened at `open`. */
function containerEnd(b: Uint8Array, open: number): number {
  let depth = 0;
  for (let i = open; i < b.length; i++) {
    const c = b[i];
    if (c === QUOTE) i = stringEnd(b, i);
    else if (c === OPEN_BRACE || c === OPEN_BRACKET) depth++;
    else if (c === CLOSE_BRACE || c === CLOSE_BRACKET) {
      depth--;
      if (depth === 0) return i;
    }
  }
  return -1;
}

function keyAt(b: Uint8Array, open: number, close: number, key: Buffer): boolean {
  if (close - open + 1 !== key.length) return false;
  for (let k = 0; k < key.length; k++) if (b[open + k] !== key[k]) return false;
  return true;
}

/**
 * The end of the top-level `metadata` object of a stored value, or undefined when the value is
 * not an object with an object `metadata`, or when `metadata` already names a resourceVersion
 * (then only a decode gives the right answer).
 */
export function findMetadataEnd(b: Uint8Array): MetadataEnd | undefined {
  let i = skipWhitespace(b, 0);
  if (b[i] !== OPEN_BRACE) return undefined;
  let depth = 1;
  let expectKey = true;
  for (i++; i < b.length; i++) {
    const c = b[i];
    if (c === QUOTE) {
      const close = stringEnd(b, i);
      if (depth === 1 && expectKey) {
        expectKey = false;
        if (keyAt(b, i, close, METADATA_KEY)) return metadataValue(b, close + 1);
      }
      i = close;
    } else if (c === OPEN_BRACE || c === OPEN_BRACKET) depth++;
    else if (c === CLOSE_BRACE || c === CLOSE_BRACKET) {
      depth--;
      if (depth === 0) return undefined;
    } else if (c === COMMA && depth === 1) expectKey = true;
  }
  return undefined;
}

function metadataValue(b: Uint8Array, afterKey: number): MetadataEnd | undefined {
  let i = skipWhitespace(b, afterKey);
  if (b[i] !== COLON) return undefined;
  i = skipWhitespace(b, i + 1);
  if (b[i] !== OPEN_BRACE) return undefined;
  const close = containerEnd(b, i);
  if (close < 0) return undefined;
  // A key (or any string) spelled "resourceVersion" inside metadata: leave it to the decoder.
  if (namesResourceVersion(b, i, close)) return undefined;
  return { close, empty: skipWhitespace(b, i + 1) === close };
}

/** Whether `"resourceVersion"` appears between `open` and `close` (a member the decoder replaces). */
export function namesResourceVersion(b: Uint8Array, open: number, close: number): boolean {
  const body = Buffer.from(b.buffer, b.byteOffset + open, close - open);
  return body.indexOf(RESOURCE_VERSION_KEY) >= 0;
}

const GO_ESCAPED_BYTES = [0x3c, 0x3e, 0x26];
const LINE_SEPARATOR = Buffer.from('\u2028');
const PARAGRAPH_SEPARATOR = Buffer.from('\u2029');
const ESCAPED_SURROGATE = Buffer.from('\\ud');

/**
 * True when a response writes the value differently from how it is stored: Go's encoder escapes
 * `<`, `>`, `&`, U+2028 and U+2029, and replaces lone surrogates (see goJsonEscape).
 */
export function needsGoEscaping(b: Uint8Array): boolean {
  const buf = Buffer.isBuffer(b) ? b : Buffer.from(b.buffer, b.byteOffset, b.byteLength);
  for (const c of GO_ESCAPED_BYTES) if (buf.indexOf(c) >= 0) return true;
  return (
    buf.indexOf(LINE_SEPARATOR) >= 0 || buf.indexOf(PARAGRAPH_SEPARATOR) >= 0 || buf.indexOf(ESCAPED_SURROGATE) >= 0
  );
}

/**
 * The compact JSON a response carries for an object stored as `stored` at `revision`, then
 * `suffix` (ASCII): the stored bytes with `"resourceVersion":"<revision>"` written last into
 * `metadata`, as a read from the watch cache serves them. Undefined when the bytes cannot go out
 * as they are (Go's encoder escapes something in them, or no `metadata` object is found).
 * Only for bytes that are the object as served (no storage-version conversion). `known`: what
 * the encoder of these very bytes recorded (`StoredCodec.encodedMetadataEnd`), which spares the
 * scan.
 */
export function servedJsonOfStored(
  stored: Uint8Array,
  revision: bigint,
  suffix = '',
  known?: MetadataEnd | null,
): Buffer | undefined {
  const end = known === undefined ? scannedMetadataEnd(stored) : known;
  if (!end) return undefined;
  const insert = `${end.empty ? '' : ','}"resourceVersion":"${revision}"`;
  return partBytes({ bytes: stored, at: end.close, insert }, suffix);
}

/** Where a response writes the resourceVersion into `stored`, found by scanning it. */
function scannedMetadataEnd(stored: Uint8Array): MetadataEnd | undefined {
  // A byte-order mark or anything other than an object is not found by findMetadataEnd.
  return needsGoEscaping(stored) ? undefined : findMetadataEnd(stored);
}

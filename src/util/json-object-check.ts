/**
 * A check of JSON bytes that builds nothing: whether they are one JSON object whose `metadata`
 * member is an object or an array (what a stored API object needs to decode). It is a one-way
 * check for a fast path: `true` only when `JSON.parse` of the text would give such an object;
 * `false` for anything else, including well-formed texts it does not bother with (escapes in a
 * top-level member name, nesting deeper than {@link MAX_DEPTH}), which the caller then checks
 * with `JSON.parse`.
 */

/**
 * Where the (last) top-level `metadata` object of an accepted text is: the offsets of its opening
 * and closing braces; `open` is -1 when that `metadata` is an array.
 */
export interface MetadataSpan {
  open: number;
  close: number;
}

/** Nesting beyond this is left to the caller's full check. */
const MAX_DEPTH = 512;

const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COLON = 0x3a;
const COMMA = 0x2c;

/** JSON's four whitespace bytes. */
const WHITESPACE = byteSet([0x20, 0x09, 0x0a, 0x0d]);
/** Bytes that end a run of plain string content: the quote, the backslash and control bytes. */
const STRING_STOP = byteSet([QUOTE, BACKSLASH, ...Array.from({ length: 0x20 }, (_, c) => c)]);
const HEX_DIGIT = byteSet([...'0123456789abcdefABCDEF'].map((c) => c.charCodeAt(0)));
/** The letters of the one-letter escapes: `\" \\ \/ \b \f \n \r \t`. */
const SIMPLE_ESCAPE = byteSet([...'"\\/bfnrt'].map((c) => c.charCodeAt(0)));
const METADATA = [...'metadata'].map((c) => c.charCodeAt(0));

/** Where the parser is: what the next token may be. */
enum Expect {
  /** A member name or `}` (just after `{`). */
  NameOrEnd,
  /** A member name (after `,` in an object). */
  Name,
  /** A value (after `:`, or after `,` in an array). */
  Value,
  /** A value or `]` (just after `[`). */
  ValueOrEnd,
  /** `,` or the end of the enclosing container. */
  CommaOrEnd,
}

/**
 * True when `bytes[start..]`, read as text, is JSON that `JSON.parse` accepts, holding an object
 * whose (last) `metadata` member is an object or an array; `found` then tells where that
 * `metadata` object is. The bytes must already be known to be
 * valid UTF-8 (multi-byte sequences are only allowed inside strings, where JSON allows any
 * character from U+0020 on). Iterative; allocates only its container stack.
 */
export function isJsonObjectWithMetadata(bytes: Uint8Array, start = 0, found?: MetadataSpan): boolean {
  const n = bytes.length;
  let i = skipWhitespace(bytes, start);
  if (bytes[i] !== OPEN_OBJECT) return false;
  i++;
  /** Open containers, innermost last: true for objects. */
  const stack: boolean[] = [true];
  let expect = Expect.NameOrEnd;
  let metadataOk = false;
  let nameIsMetadata = false;
  /** Inside the value of a top-level `metadata` that is an object. */
  let inMetadataObject = false;
  if (found) found.open = -1;
  while (i < n) {
    const c = bytes[i];
    if (WHITESPACE[c] === 1) {
      i++;
      continue;
    }
    if (expect === Expect.NameOrEnd || expect === Expect.Name) {
      if (c === CLOSE_OBJECT && expect === Expect.NameOrEnd) {
        stack.pop();
        if (inMetadataObject && stack.length === 1) {
          inMetadataObject = false;
          if (found) found.close = i;
        }
        i++;
        expect = Expect.CommaOrEnd;
        if (stack.length === 0) break;
        continue;
      }
      if (c !== QUOTE) return false;
      const nameStart = i + 1;
      i = skipString(bytes, nameStart);
      if (i < 0) return false;
      if (stack.length === 1) {
        nameIsMetadata = isMetadata(bytes, nameStart, i - 1);
        // An escape could spell `metadata`: such names are left to the full check.
        if (!nameIsMetadata && hasBackslash(bytes, nameStart, i - 1)) return false;
      }
      i = skipWhitespace(bytes, i);
      if (bytes[i] !== COLON) return false;
      i++;
      expect = Expect.Value;
      continue;
    }
    if (expect === Expect.Value || expect === Expect.ValueOrEnd) {
      if (c === CLOSE_ARRAY && expect === Expect.ValueOrEnd) {
        stack.pop();
        i++;
        expect = Expect.CommaOrEnd;
        continue;
      }
      // A member of the top-level object: the last `metadata` decides.
      if (stack.length === 1 && nameIsMetadata) {
        metadataOk = c === OPEN_OBJECT || c === OPEN_ARRAY;
        inMetadataObject = c === OPEN_OBJECT;
        if (found) found.open = inMetadataObject ? i : -1;
      }
      if (c === OPEN_OBJECT || c === OPEN_ARRAY) {
        if (stack.length >= MAX_DEPTH) return false;
        stack.push(c === OPEN_OBJECT);
        i++;
        expect = c === OPEN_OBJECT ? Expect.NameOrEnd : Expect.ValueOrEnd;
        continue;
      }
      i = c === QUOTE ? skipString(bytes, i + 1) : skipScalar(bytes, i);
      if (i < 0) return false;
      expect = Expect.CommaOrEnd;
      continue;
    }
    // Expect.CommaOrEnd
    const inObject = stack[stack.length - 1];
    if (c === COMMA) {
      i++;
      expect = inObject ? Expect.Name : Expect.Value;
      continue;
    }
    if (c !== (inObject ? CLOSE_OBJECT : CLOSE_ARRAY)) return false;
    stack.pop();
    if (inMetadataObject && stack.length === 1) {
      inMetadataObject = false;
      if (found) found.close = i;
    }
    i++;
    if (stack.length === 0) break;
  }
  return stack.length === 0 && skipWhitespace(bytes, i) === n && metadataOk;
}

function byteSet(bytes: readonly number[]): Uint8Array {
  const set = new Uint8Array(256);
  for (const b of bytes) set[b] = 1;
  return set;
}

function skipWhitespace(bytes: Uint8Array, i: number): number {
  while (WHITESPACE[bytes[i]] === 1) i++;
  return i;
}

function hasBackslash(bytes: Uint8Array, start: number, end: number): boolean {
  for (let k = start; k < end; k++) if (bytes[k] === BACKSLASH) return true;
  return false;
}

function isMetadata(bytes: Uint8Array, start: number, end: number): boolean {
  if (end - start !== METADATA.length) return false;
  for (let k = 0; k < METADATA.length; k++) if (bytes[start + k] !== METADATA[k]) return false;
  return true;
}

/** The index after the string whose content starts at `i` (after its opening quote), or -1. */
function skipString(bytes: Uint8Array, i: number): number {
  const n = bytes.length;
  for (;;) {
    // Past the end, `bytes[i]` is undefined and ends the run too.
    while (i < n && STRING_STOP[bytes[i]] === 0) i++;
    if (i >= n) return -1;
    const c = bytes[i];
    if (c === QUOTE) return i + 1;
    if (c !== BACKSLASH) return -1; // a control byte
    const e = bytes[i + 1];
    if (e === 0x75) {
      // \uXXXX: exactly four hex digits (a lone surrogate is allowed, as JSON.parse allows it).
      for (let k = 2; k < 6; k++) if (HEX_DIGIT[bytes[i + k]] !== 1) return -1;
      i += 6;
    } else if (SIMPLE_ESCAPE[e] === 1) {
      i += 2;
    } else {
      return -1;
    }
  }
}

/** The index after the literal or number at `i`, or -1. */
function skipScalar(bytes: Uint8Array, i: number): number {
  const c = bytes[i];
  if (c === 0x74) return literal(bytes, i, 'true');
  if (c === 0x66) return literal(bytes, i, 'false');
  if (c === 0x6e) return literal(bytes, i, 'null');
  return skipNumber(bytes, i);
}

function literal(bytes: Uint8Array, i: number, word: string): number {
  for (let k = 0; k < word.length; k++) if (bytes[i + k] !== word.charCodeAt(k)) return -1;
  return i + word.length;
}

function isDigit(b: number | undefined): boolean {
  return b !== undefined && b >= 0x30 && b <= 0x39;
}

/** `-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?` at `i`: the index after it, or -1. */
function skipNumber(bytes: Uint8Array, i: number): number {
  if (bytes[i] === 0x2d) i++;
  if (bytes[i] === 0x30) i++;
  else if (isDigit(bytes[i])) while (isDigit(bytes[i])) i++;
  else return -1;
  if (bytes[i] === 0x2e) {
    i++;
    if (!isDigit(bytes[i])) return -1;
    while (isDigit(bytes[i])) i++;
  }
  if (bytes[i] === 0x65 || bytes[i] === 0x45) {
    i++;
    if (bytes[i] === 0x2b || bytes[i] === 0x2d) i++;
    if (!isDigit(bytes[i])) return -1;
    while (isDigit(bytes[i])) i++;
  }
  return i;
}

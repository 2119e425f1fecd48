/**
 * JSON output as kube-apiserver writes it with Go's `encoding/json`: `<`, `>`, `&`, U+2028 and
 * U+2029 escaped as `\u003c`-style sequences, lone surrogates as `\ufffd`; the compact form
 * ends with a newline (`json.Encoder.Encode`), the pretty form is indented by two spaces and
 * has none (`json.MarshalIndent`). Numbers print as Go prints float64 (the same digits as
 * JavaScript), `bigint`s (integers beyond 2^53) as their digits. Object members keep their
 * insertion order. Pure.
 */

import { stringifyJson } from '../util/json-text.js';

const GO_ESCAPED = /[<>&\u2028\u2029]/g;
const GO_ESCAPES: Readonly<Record<string, string>> = {
  '<': '\\u003c',
  '>': '\\u003e',
  '&': '\\u0026',
  '\u2028': '\\u2028',
  '\u2029': '\\u2029',
};
/** An escaped lone surrogate in JSON.stringify output (odd run of backslashes before `u`). */
const LONE_SURROGATE = /(\\+)u(d[89a-f][0-9a-f]{2})/g;

/** Applies Go's extra escaping to the output of `JSON.stringify`. */
export function goJsonEscape(json: string): string {
  let out = json;
  if (/[<>&\u2028\u2029]/.test(out)) out = out.replace(GO_ESCAPED, (c) => GO_ESCAPES[c]);
  if (out.includes('\\ud')) {
    out = out.replace(LONE_SURROGATE, (m, slashes: string) => (slashes.length % 2 === 1 ? `${slashes}ufffd` : m));
  }
  return out;
}

/**
 * `value` as kube writes a JSON response body: compact with a trailing newline, or indented
 * (`pretty`) without one. Like `JSON.stringify`, `undefined` members are skipped.
 */
export function encodeJson(value: unknown, options: { pretty?: boolean } = {}): string {
  if (options.pretty) return goJsonEscape(stringifyJson(value, 2) ?? 'null');
  return `${encodeJsonCompact(value)}\n`;
}

/** `value` in compact JSON without the trailing newline (a list item, say). */
export function encodeJsonCompact(value: unknown): string {
  return goJsonEscape(stringifyJson(value) ?? 'null');
}

/**
 * A list body, `{...head,"items":[...]}` plus the newline, exactly as {@link encodeJson} writes
 * it, built from each item's encoding (`encodeItem`: JSON text, or bytes such as a cached
 * encoding) into one buffer rather than as one string: for large lists that string alone costs
 * more than encoding the items (it has to be flattened and converted to UTF-8 as a whole).
 */
export function encodeJsonList(
  head: Readonly<Record<string, unknown>>,
  items: readonly unknown[],
  encodeItem: (item: unknown) => JsonPart = encodeJsonCompact,
): Buffer {
  const open = listOpening(head);
  const parts: JsonPart[] = new Array(items.length);
  let length = Buffer.byteLength(open) + LIST_CLOSE.length + Math.max(0, items.length - 1);
  for (let i = 0; i < items.length; i++) {
    const part = encodeItem(items[i]);
    parts[i] = part;
    length += partLength(part);
  }
  const out = Buffer.allocUnsafe(length);
  let at = out.write(open, 0);
  for (let i = 0; i < parts.length; i++) {
    if (i > 0) out[at++] = COMMA;
    at = writePart(out, at, parts[i] as JsonPart);
  }
  LIST_CLOSE.copy(out, at);
  return out;
}

/** A body of known size made in chunks (the shape of the endpoints' `ChunkedBody`). */
export interface JsonChunks {
  readonly size: number;
  chunks(): Iterable<Uint8Array>;
}

/** How large the chunks of {@link encodeJsonListChunks} are by default. */
export const LIST_CHUNK_BYTES = 1 << 20;

/**
 * The items of a list body as a writer reaches them: each one's JSON size, and a way to write
 * it into a buffer. Asked for an item's size more than once, it must answer the same.
 */
export interface JsonItems {
  readonly count: number;
  size(index: number): number;
  /** Writes item `index` into `out` at `at` (exactly `size(index)` bytes); returns the offset after it. */
  write(index: number, out: Buffer, at: number): number;
}

/** List items from their parts, made once each by `encodeItem` and kept until written. */
export function partItems<T>(items: readonly T[], encodeItem: (item: T) => JsonPart): JsonItems {
  const parts = items.map(encodeItem);
  return {
    count: parts.length,
    size: (i) => partLength(parts[i] as JsonPart),
    write: (i, out, at) => writePart(out, at, parts[i] as JsonPart),
  };
}

/**
 * The same bytes as {@link encodeJsonList}, made in chunks of about `chunkBytes` (an item larger
 * than that gets a chunk of its own size) while they are taken: the items' sizes are summed
 * first, each chunk is filled only when asked for. Items whose bytes are read from the store on
 * demand are read when their chunk is made.
 */
export function encodeJsonListChunks(
  head: Readonly<Record<string, unknown>>,
  items: JsonItems,
  chunkBytes = LIST_CHUNK_BYTES,
): JsonChunks {
  const open = Buffer.from(listOpening(head));
  const count = items.count;
  let size = open.length + LIST_CLOSE.length + Math.max(0, count - 1);
  for (let i = 0; i < count; i++) size += items.size(i);
  function* chunks(): Generator<Uint8Array> {
    let left = size;
    let out = Buffer.allocUnsafe(Math.max(Math.min(chunkBytes, left), open.length));
    let at = open.copy(out, 0);
    const room = (need: number): void => {
      if (at + need <= out.length) return;
      left -= at;
      out = Buffer.allocUnsafe(Math.max(Math.min(chunkBytes, left), need));
      at = 0;
    };
    for (let i = 0; i < count; i++) {
      const need = items.size(i) + (i > 0 ? 1 : 0);
      if (at + need > out.length) {
        yield out.subarray(0, at);
        room(need);
      }
      if (i > 0) out[at++] = COMMA;
      at = items.write(i, out, at);
    }
    if (at + LIST_CLOSE.length > out.length) {
      yield out.subarray(0, at);
      room(LIST_CLOSE.length);
    }
    at += LIST_CLOSE.copy(out, at);
    yield out.subarray(0, at);
  }
  return { size, chunks };
}

/** `{...head,"items":[` of a list body. */
function listOpening(head: Readonly<Record<string, unknown>>): string {
  const headJson = goJsonEscape(stringifyJson(head) ?? '{}');
  return `${headJson.length > 2 ? `${headJson.slice(0, -1)},` : '{'}"items":[`;
}

/**
 * Stored JSON bytes with an ASCII text inserted at one offset (an object's resourceVersion,
 * written into the bytes it is stored as): copied once, into the buffer that goes out.
 */
export interface SplicedBytes {
  readonly bytes: Uint8Array;
  readonly at: number;
  readonly insert: string;
}

/**
 * JSON bytes of a known size written only when the output buffer exists (bytes read from a
 * store's buffer at that moment, never copied twice).
 */
export interface DeferredBytes {
  readonly size: number;
  /** Writes exactly `size` bytes into `out` at `at`; returns `at + size`. */
  writeTo(out: Buffer, at: number): number;
}

/** One item of a list body: JSON text, JSON bytes, bytes with an insertion, or bytes written later. */
export type JsonPart = string | Uint8Array | SplicedBytes | DeferredBytes;

/** The bytes `part` takes once written. */
export function partLength(part: JsonPart): number {
  if (typeof part === 'string') return Buffer.byteLength(part);
  if (part instanceof Uint8Array) return part.length;
  if ('size' in part) return part.size;
  return part.bytes.length + part.insert.length;
}

/** Writes `part` into `out` at `at`; returns the offset after it. */
export function writePart(out: Buffer, at: number, part: JsonPart): number {
  if (typeof part === 'string') return at + out.write(part, at);
  if (part instanceof Uint8Array) {
    out.set(part, at);
    return at + part.length;
  }
  if ('size' in part) return part.writeTo(out, at);
  return writeSpliced(out, at, part);
}

/** Writes stored bytes with their insertion into `out` at `at`; returns the offset after them. */
export function writeSpliced(out: Buffer, at: number, part: SplicedBytes): number {
  const { bytes, at: split, insert } = part;
  // Buffer's native copy takes ranges: no subarray views to allocate per item.
  copyBytes(bytes, out, at, 0, split);
  let to = at + split;
  to += out.write(insert, to, 'latin1');
  copyBytes(bytes, out, to, split, bytes.length);
  return to + bytes.length - split;
}

const bufferCopy = Buffer.prototype.copy;

/** Copies `source[start..end)` into `target` at `at` (Buffer's copy, which takes any Uint8Array). */
function copyBytes(source: Uint8Array, target: Buffer, at: number, start: number, end: number): void {
  bufferCopy.call(source, target, at, start, end);
}

/** A part as one buffer, followed by `suffix` (ASCII). */
export function partBytes(part: JsonPart, suffix = ''): Buffer {
  const out = Buffer.allocUnsafe(partLength(part) + suffix.length);
  const at = writePart(out, 0, part);
  if (suffix) out.write(suffix, at, 'latin1');
  return out;
}

const COMMA = 0x2c;
const LIST_CLOSE = Buffer.from(']}\n');

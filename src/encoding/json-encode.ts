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
  encodeItem: (item: unknown) => string | Uint8Array = encodeJsonCompact,
): Buffer {
  const headJson = goJsonEscape(stringifyJson(head) ?? '{}');
  const open = `${headJson.length > 2 ? `${headJson.slice(0, -1)},` : '{'}"items":[`;
  const parts: (string | Uint8Array)[] = new Array(items.length);
  let length = Buffer.byteLength(open) + LIST_CLOSE.length + Math.max(0, items.length - 1);
  for (let i = 0; i < items.length; i++) {
    const part = encodeItem(items[i]);
    parts[i] = part;
    length += typeof part === 'string' ? Buffer.byteLength(part) : part.length;
  }
  const out = Buffer.allocUnsafe(length);
  let at = out.write(open, 0);
  for (let i = 0; i < parts.length; i++) {
    if (i > 0) out[at++] = COMMA;
    const part = parts[i];
    if (typeof part === 'string') at += out.write(part, at);
    else {
      out.set(part, at);
      at += part.length;
    }
  }
  LIST_CLOSE.copy(out, at);
  return out;
}

const COMMA = 0x2c;
const LIST_CLOSE = Buffer.from(']}\n');

import { isPlainObject } from '../schema/json-value.js';

const VALUE_START = new Set(['{', '[', '"', '-', '0', '1', '2', '3', '4', '5', '6', '7', '8', '9', 't', 'f', 'n']);

/**
 * Why `text` does not unmarshal into a Go `map[string]interface{}`, worded like Go's
 * `encoding/json` errors, or `undefined` when it does:
 * - `unexpected end of JSON input`
 * - `invalid character 'x' looking for beginning of value`
 * - `invalid character 'o' in literal null (expecting 'u')`
 * - `json: cannot unmarshal array into Go value of type map[string]interface {}`
 *
 * Other syntax errors inside a document are reported as `invalid JSON: …` (Go's wording there
 * depends on parser context this check does not track).
 */
export function goJsonObjectError(text: string): string | undefined {
  const trimmed = text.replace(/^[ \t\r\n]+/, '');
  if (trimmed.length === 0) return 'unexpected end of JSON input';
  const first = trimmed[0];
  if (!VALUE_START.has(first)) return `invalid character '${first}' looking for beginning of value`;
  const literal = literalError(trimmed);
  if (literal) return literal;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    const position = /at position (\d+)/.exec(message);
    const truncated = position !== null && Number(position[1]) >= text.trimEnd().length;
    if (truncated || /end of JSON input/i.test(message)) return 'unexpected end of JSON input';
    return `invalid JSON: ${message}`;
  }
  // JSON null unmarshals into a nil map without error.
  if (value === null || isPlainObject(value)) return undefined;
  const goType = Array.isArray(value) ? 'array' : typeof value === 'boolean' ? 'bool' : typeof value;
  return `json: cannot unmarshal ${goType} into Go value of type map[string]interface {}`;
}

/** Go's message for a misspelt `true`, `false` or `null` at the start of the document. */
function literalError(text: string): string | undefined {
  const literal = { t: 'true', f: 'false', n: 'null' }[text[0]];
  if (!literal) return undefined;
  for (let i = 1; i < literal.length; i++) {
    if (i >= text.length) return 'unexpected end of JSON input';
    if (text[i] !== literal[i])
      return `invalid character '${text[i]}' in literal ${literal} (expecting '${literal[i]}')`;
  }
  return undefined;
}

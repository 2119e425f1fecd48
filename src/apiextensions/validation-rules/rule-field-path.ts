import { childPath, keyPath } from '../../apis/schema/field-path.js';
import type { Schema } from '../../apis/schema/schema.js';

/**
 * A rule's `fieldPath`, as kube-apiserver's `ValidFieldPath` reads it: a JSON path of field
 * (`.name`) and map (`['key']`) accessors below the rule's node, each naming a property the
 * schema declares or a key of a map (`additionalProperties`). The result is the path as a field
 * error prints it (`spec.replicas`, `labels[app]`) and the schema it reaches.
 */
export type FieldPathResult =
  | { readonly path: string; readonly schema: Schema; readonly error?: undefined }
  | { readonly error: string };

/** Splits into `.`, `[`, `]`, single-quoted strings and the names between them (kube's scanner). */
function tokenize(jsonPath: string): string[] {
  const tokens: string[] = [];
  let i = 0;
  while (i < jsonPath.length) {
    const c = jsonPath[i];
    if (c === "'") {
      // A quoted string ends at the first quote not preceded by a backslash (or at the end).
      let end = i + 1;
      while (end < jsonPath.length && !(jsonPath[end] === "'" && jsonPath[end - 1] !== '\\')) end++;
      tokens.push(jsonPath.slice(i, end + 1));
      i = end + 1;
    } else if (c === '.' || c === '[' || c === ']') {
      tokens.push(c);
      i++;
    } else {
      let end = i;
      while (end < jsonPath.length && !'.[]'.includes(jsonPath[end])) end++;
      tokens.push(jsonPath.slice(i, end));
      i = end;
    }
  }
  return tokens;
}

const ESCAPES: Readonly<Record<string, string>> = {
  a: '\x07',
  b: '\b',
  f: '\f',
  n: '\n',
  r: '\r',
  t: '\t',
  v: '\v',
  "'": "'",
  '\\': '\\',
};

/** The text of a single-quoted string with its backslash escapes resolved, or undefined when one is unknown. */
function unescapeSingleQuoted(s: string): string | undefined {
  let bad = false;
  const out = s.replace(/\\./g, (m) => {
    const r = ESCAPES[m[1]];
    if (r === undefined) bad = true;
    return r ?? '';
  });
  return bad ? undefined : out;
}

function schemaOf(v: Schema | boolean | undefined): Schema | undefined {
  return typeof v === 'object' && v !== null ? v : undefined;
}

/** Validates `jsonPath` against `schema` (the rule's node). */
export function validFieldPath(jsonPath: string, schema: Schema): FieldPathResult {
  const tokens = tokenize(jsonPath);
  let path = '';
  let node: Schema | undefined = schema;
  let i = 0;
  const step = (name: string): string | undefined => {
    if (node === undefined) return 'does not refer to a valid field';
    if (node.properties !== undefined) {
      path = childPath(path, name);
      node = Object.hasOwn(node.properties, name) ? node.properties[name] : undefined;
      return node === undefined ? 'does not refer to a valid field' : undefined;
    }
    if (node.additionalProperties !== undefined) {
      path = keyPath(path, name);
      node = schemaOf(node.additionalProperties);
      return undefined;
    }
    return 'does not refer to a valid field';
  };
  while (i < tokens.length) {
    const tok = tokens[i++];
    if (tok === '[') {
      if (i >= tokens.length) return { error: 'unexpected end of JSON path' };
      const quoted = tokens[i++];
      if (quoted.length < 2 || !quoted.startsWith("'") || !quoted.endsWith("'")) {
        return { error: `expected single quoted string but got ${quoted}` };
      }
      const name = unescapeSingleQuoted(quoted.slice(1, -1));
      if (name === undefined) return { error: 'invalid string literal' };
      const err = step(name);
      if (err) return { error: err };
      if (i >= tokens.length) return { error: 'unexpected end of JSON path' };
      const close = tokens[i++];
      if (close !== ']') return { error: `expected ] but got ${close}` };
    } else if (tok === '.') {
      if (i >= tokens.length) return { error: 'unexpected end of JSON path' };
      const err = step(tokens[i++]);
      if (err) return { error: err };
    } else {
      return { error: `expected [ or . but got: ${tok}` };
    }
  }
  if (node === undefined) return { error: 'does not refer to a valid field' };
  return { path, schema: node };
}

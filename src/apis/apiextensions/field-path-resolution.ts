import { childPath, keyPath } from '../schema/field-path.js';
import type { JSONSchemaProps } from './crd-types.js';

/** A path resolved against a schema: the field path and the schema it leads to. */
export type ResolvedFieldPath =
  | { readonly path: string; readonly root: string; readonly schema: JSONSchemaProps | undefined }
  | { readonly error: string };

function isSchema(v: unknown): v is JSONSchemaProps {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Splits `.a['b'].c` into `.`, `a`, `[`, `'b'`, `]`, `.`, `c` as kube's scanner does. */
function tokens(path: string): string[] {
  const out: string[] = [];
  let i = 0;
  while (i < path.length) {
    if (path[i] === "'") {
      let j = i + 1;
      while (j < path.length && !(path[j] === "'" && path[j - 1] !== '\\')) j++;
      out.push(path.slice(i, j + 1));
      i = j + 1;
      continue;
    }
    if ('.[]'.includes(path[i])) {
      out.push(path[i]);
      i++;
      continue;
    }
    let j = i;
    while (j < path.length && !'.[]'.includes(path[j]) && path[j] !== "'") j++;
    out.push(path.slice(i, j));
    i = j;
  }
  return out;
}

/**
 * kube's `cel.ValidFieldPath`: a JSON path of `.name` and `['name']` steps (the latter only when
 * `allowArrayNotation`) through the properties (or additionalProperties) of a structural schema.
 * Returns the field path (kube's `field.Path` form) and its first element, or kube's error.
 */
export function validFieldPath(
  schema: JSONSchemaProps,
  jsonPath: string,
  allowArrayNotation: boolean,
): ResolvedFieldPath {
  const toks = tokens(jsonPath);
  let cur: JSONSchemaProps | undefined = schema;
  let path = '';
  let root = '';
  const step = (name: string): string | undefined => {
    if (!cur) return 'does not refer to a valid field';
    const props = isSchema(cur.properties) ? (cur.properties as Record<string, unknown>) : undefined;
    if (props) {
      path = childPath(path, name);
      const next = props[name];
      if (!isSchema(next)) return 'does not refer to a valid field';
      cur = next;
    } else if (cur.additionalProperties !== undefined && cur.additionalProperties !== false) {
      path = keyPath(path, name);
      cur = isSchema(cur.additionalProperties) ? cur.additionalProperties : undefined;
    } else {
      return 'does not refer to a valid field';
    }
    if (root === '') root = name;
    return undefined;
  };
  for (let i = 0; i < toks.length; i++) {
    const tok = toks[i];
    if (tok === '[') {
      if (!allowArrayNotation) return { error: 'array notation is not allowed' };
      const quoted = toks[++i];
      if (quoted === undefined) return { error: 'unexpected end of JSON path' };
      if (quoted.length < 2 || !quoted.startsWith("'") || !quoted.endsWith("'")) {
        return { error: `expected single quoted string but got ${quoted}` };
      }
      const err = step(quoted.slice(1, -1).replace(/\\(.)/g, '$1'));
      if (err) return { error: err };
      const close = toks[++i];
      if (close === undefined) return { error: 'unexpected end of JSON path' };
      if (close !== ']') return { error: `expected ] but got ${close}` };
    } else if (tok === '.') {
      const name = toks[++i];
      if (name === undefined) return { error: 'unexpected end of JSON path' };
      const err = step(name);
      if (err) return { error: err };
    } else {
      return { error: `expected [ or . but got: ${tok}` };
    }
  }
  return { path, root, schema: cur };
}

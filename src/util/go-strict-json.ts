import { parseGoDurationNanos } from './go-duration.js';

/**
 * What a field of a configuration file holds, with the Go type kube-apiserver decodes it into
 * (named in type errors): a string (of a named string type), a bool, a `metav1.Duration` text,
 * a list or a struct.
 */
export type GoShape =
  | { readonly kind: 'string'; readonly goType: string }
  | { readonly kind: 'bool' | 'duration' }
  | { readonly kind: 'list'; readonly goType: string; readonly of: GoShape }
  | { readonly kind: 'object'; readonly goType: string; readonly fields: Readonly<Record<string, GoShape>> };

/** Go's name for the JSON kind of a value, as its decoder reports it. */
export function jsonKind(value: unknown): string {
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'boolean') return 'bool';
  if (typeof value === 'number') return 'number';
  return typeof value === 'string' ? 'string' : 'object';
}

/** What Go's strict decoding of a document reports: type errors (it stops at the first) and unknown fields. */
export interface GoStrictProblems {
  readonly typeErrors: string[];
  readonly unknownFields: string[];
}

/**
 * Checks a decoded document against `shape` as Go's strict JSON decoding does: `null` is the zero
 * value; a wrong type is `json: cannot unmarshal <kind> into Go struct field <Struct>.<path> of
 * type <T>`; a duration is a `time.ParseDuration` text; an unknown field is
 * `unknown field "<path>"`. `root` names the top-level struct.
 */
export function checkGoStrict(value: unknown, shape: GoShape, root: string): GoStrictProblems {
  const problems: GoStrictProblems = { typeErrors: [], unknownFields: [] };
  check(value, shape, '', '', root, problems);
  return problems;
}

function check(
  value: unknown,
  shape: GoShape,
  path: string,
  goPath: string,
  parent: string,
  s: GoStrictProblems,
): void {
  if (value === null || value === undefined) return;
  const wrong = (goType: string): void => {
    s.typeErrors.push(
      `json: cannot unmarshal ${jsonKind(value)} into Go struct field ${parent}.${goPath} of type ${goType}`,
    );
  };
  switch (shape.kind) {
    case 'string':
      if (typeof value !== 'string') wrong(shape.goType);
      return;
    case 'bool':
      if (typeof value !== 'boolean') wrong('bool');
      return;
    case 'duration': {
      if (typeof value !== 'string') {
        s.typeErrors.push(`json: cannot unmarshal ${jsonKind(value)} into Go value of type string`);
        return;
      }
      const parsed = parseGoDurationNanos(value);
      if (typeof parsed !== 'bigint') s.typeErrors.push(parsed.error);
      return;
    }
    case 'list':
      if (!Array.isArray(value)) {
        wrong(shape.goType);
        return;
      }
      value.forEach((v, i) => {
        check(v, shape.of, `${path}[${i}]`, goPath, parent, s);
      });
      return;
    case 'object': {
      if (typeof value !== 'object' || Array.isArray(value)) {
        wrong(shape.goType);
        return;
      }
      const structName = shape.goType.replace(/^\*/, '').split('.').pop() as string;
      for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
        const fieldPath = path ? `${path}.${k}` : k;
        const field = shape.fields[k];
        if (field === undefined) {
          s.unknownFields.push(`unknown field ${JSON.stringify(fieldPath)}`);
          continue;
        }
        check(v, field, fieldPath, goPath ? `${goPath}.${k}` : k, structName, s);
      }
    }
  }
}

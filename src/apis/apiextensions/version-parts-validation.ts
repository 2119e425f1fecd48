import { type FieldError, fieldErrors } from '../meta/field-error.js';
import { childPath, indexPath } from '../schema/field-path.js';
import type {
  CustomResourceColumnDefinition,
  CustomResourceSubresources,
  JSONSchemaProps,
  SelectableField,
} from './crd-types.js';
import { validFieldPath } from './field-path-resolution.js';
import { newStructuralError } from './structural-validation.js';

/** kube's checks of a version's sub-resources, printer columns and selectable fields. */

const COLUMN_TYPES = ['boolean', 'date', 'integer', 'number', 'string'];
const COLUMN_FORMATS = ['byte', 'date', 'date-time', 'double', 'float', 'int32', 'int64', 'password'];

/** At most this many selectable fields per version. */
export const MAX_SELECTABLE_FIELDS = 8;

/** kube's `validateSimpleJSONPath`: a path in dot notation starting with `.`. */
function simpleJsonPathErrors(s: string, path: string): FieldError[] {
  if (s.length === 0) return [fieldErrors.invalid(path, s, 'must not be empty')];
  if (s[0] !== '.') return [fieldErrors.invalid(path, s, 'must be a simple json path starting with .')];
  return [];
}

/** `subresources`: the scale paths must be simple paths under `.spec` / `.status`. */
export function validateSubresources(sub: CustomResourceSubresources | undefined, path: string): FieldError[] {
  const scale = sub?.scale;
  if (!scale) return [];
  const errs: FieldError[] = [];
  const under = (value: string | undefined, key: string, prefixes: readonly string[], detail: string) => {
    const at = childPath(path, `scale.${key}`);
    if (!value) {
      if (key !== 'labelSelectorPath') errs.push(fieldErrors.required(at));
      return;
    }
    const simple = simpleJsonPathErrors(value, at);
    if (simple.length > 0) errs.push(...simple);
    else if (!prefixes.some((p) => value.startsWith(p))) errs.push(fieldErrors.invalid(at, value, detail));
  };
  under(scale.specReplicasPath, 'specReplicasPath', ['.spec.'], 'should be a json path under .spec');
  under(scale.statusReplicasPath, 'statusReplicasPath', ['.status.'], 'should be a json path under .status');
  under(
    scale.labelSelectorPath,
    'labelSelectorPath',
    ['.spec.', '.status.'],
    'should be a json path under either .spec or .status',
  );
  return errs;
}

/** One printer column. */
export function validateColumn(col: CustomResourceColumnDefinition, path: string): FieldError[] {
  const errs: FieldError[] = [];
  if (!col.name) errs.push(fieldErrors.required(childPath(path, 'name')));
  const types = `must be one of ${COLUMN_TYPES.join(',')}`;
  if (!col.type) errs.push(fieldErrors.required(childPath(path, 'type'), types));
  else if (!COLUMN_TYPES.includes(col.type)) errs.push(fieldErrors.invalid(childPath(path, 'type'), col.type, types));
  if (col.format && !COLUMN_FORMATS.includes(col.format)) {
    errs.push(fieldErrors.invalid(childPath(path, 'format'), col.format, `must be one of ${COLUMN_FORMATS.join(',')}`));
  }
  if (!col.jsonPath) errs.push(fieldErrors.required(childPath(path, 'JSONPath')));
  else errs.push(...simpleJsonPathErrors(col.jsonPath, childPath(path, 'JSONPath')));
  return errs;
}

/**
 * Selectable fields of a version (`level: 'version'`, `base` the version's path) or of the
 * spec (`level: 'spec'`): each a path, outside metadata, to a string, boolean or integer field;
 * no duplicates; at most {@link MAX_SELECTABLE_FIELDS}.
 */
export function validateSelectableFields(
  fields: readonly SelectableField[],
  schema: JSONSchemaProps | undefined,
  base: string,
  level: 'version' | 'spec',
): FieldError[] {
  const path = childPath(base, 'selectableFields');
  if (!schema) {
    const detail =
      level === 'version'
        ? 'selectableFields may only be set when version.schema.openAPIV3Schema is not included'
        : 'selectableFields may only be set when validations.schema is included';
    return [fieldErrors.invalid(path, '', detail)];
  }
  const errs: FieldError[] = [];
  const initError = newStructuralError(schema);
  if (initError) errs.push(fieldErrors.invalid(childPath(base, 'schema.openAPIV3Schema'), '', initError));
  const unique = new Set<string>();
  fields.forEach((f, i) => {
    const at = childPath(indexPath(path, i), 'jsonPath');
    const jsonPath = typeof f?.jsonPath === 'string' ? f.jsonPath : '';
    if (jsonPath === '') {
      errs.push(fieldErrors.required(at));
      return;
    }
    const resolved = validFieldPath(schema, jsonPath, false);
    if ('error' in resolved) {
      errs.push(fieldErrors.invalid(at, jsonPath, `is an invalid path: ${resolved.error}`));
      return;
    }
    if (resolved.root === 'metadata')
      errs.push(fieldErrors.invalid(at, jsonPath, 'must not point to fields in metadata'));
    const type = resolved.schema?.type;
    if (type !== 'string' && type !== 'boolean' && type !== 'integer') {
      errs.push(
        fieldErrors.invalid(
          at,
          jsonPath,
          'must point to a field of type string, boolean or integer. Enum string fields and strings with formats are allowed.',
        ),
      );
    }
    if (unique.has(resolved.path)) errs.push(fieldErrors.duplicate(at, jsonPath));
    else unique.add(resolved.path);
  });
  if (unique.size > MAX_SELECTABLE_FIELDS) errs.push(fieldErrors.tooMany(path, unique.size, MAX_SELECTABLE_FIELDS));
  return errs;
}

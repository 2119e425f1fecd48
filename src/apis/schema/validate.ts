import { type FieldError, fieldErrors } from '../meta/field-error.js';
import { childPath, indexPath } from './field-path.js';
import { INTEGER_FORMAT_BOUNDS, stringMatchesFormat } from './formats.js';
import { canonicalJson, isPlainObject, jsonEqual, jsonTypeName } from './json-value.js';
import type { Schema } from './schema.js';

/**
 * Validates a decoded JSON value against a structural schema and returns every field error, in
 * the form kube-apiserver's OpenAPI schema validation reports them:
 *
 * - wrong type: `FieldValueTypeInvalid`, `Invalid value: "string": spec.x in body must be of type integer: "string"`
 * - missing required property: `FieldValueRequired`, `Required value`
 * - value outside `enum`: `FieldValueNotSupported`, `Unsupported value: "x": supported values: "a", "b"`
 * - `maxLength`: `FieldValueTooLong`; `maxItems` / `maxProperties`: `FieldValueTooMany`
 * - `minLength`, `pattern`, `minimum`, `maximum`, `minItems`, `minProperties`:
 *   `FieldValueInvalid` with the OpenAPI message (`spec.x in body should match '^a$'`)
 * - formats `byte`, `date-time`: `FieldValueTypeInvalid` (`must be of type byte: "…"`);
 *   `int32`/`int64` out of range: `FieldValueInvalid` as if `minimum`/`maximum` were set
 * - duplicates in `x-orch-list-type` `set` / `map` lists: `FieldValueDuplicate` (unless
 *   `x-orch-list-duplicates: allowed`)
 *
 * Paths are dotted (`spec.x`), list items indexed (`spec.items[0]`), map entries dotted
 * (`data.key`), prefixed by `path`. Unknown fields are not errors here (see
 * `pruneUnknownFields`). The value is not modified. Pure and synchronous.
 */
export function validateAgainstSchema(schema: Schema, obj: unknown, path = ''): FieldError[] {
  const errs: FieldError[] = [];
  walk(schema, obj, path, errs);
  return errs;
}

function typeLabel(schema: Schema): string | undefined {
  if (schema['x-orch-int-or-string']) return 'integer,string';
  return schema.type;
}

function hasExpectedType(schema: Schema, value: unknown): boolean {
  if (schema['x-orch-int-or-string']) return typeof value === 'string' || isInteger(value);
  switch (schema.type) {
    case undefined:
      return true;
    case 'object':
      return isPlainObject(value);
    case 'array':
      return Array.isArray(value);
    case 'string':
      return typeof value === 'string';
    case 'boolean':
      return typeof value === 'boolean';
    case 'integer':
      return isInteger(value);
    case 'number':
      return (typeof value === 'number' && Number.isFinite(value)) || typeof value === 'bigint';
  }
}

/** A whole number: a whole `number`, or a `bigint` (how integers beyond 2^53 are held). */
function isInteger(value: unknown): boolean {
  return Number.isInteger(value) || typeof value === 'bigint';
}

function walk(schema: Schema, value: unknown, path: string, errs: FieldError[]): void {
  if (value === undefined) return;
  const label = typeLabel(schema);
  if (value === null) {
    if (!schema.nullable && label) errs.push(typeError(path, label, 'null'));
    return;
  }
  if (!hasExpectedType(schema, value)) {
    errs.push(typeError(path, label ?? '', jsonTypeName(value)));
    return;
  }
  if (schema.enum && !schema.enum.some((allowed) => jsonEqual(allowed, value))) {
    const supported = schema.enum.map((v) => (typeof v === 'string' ? v : JSON.stringify(v)));
    errs.push(fieldErrors.notSupported(path, value, supported));
  }
  if (typeof value === 'string') validateString(schema, value, path, errs);
  else if (typeof value === 'number' || typeof value === 'bigint') validateNumber(schema, value, path, errs);
  else if (Array.isArray(value)) validateArray(schema, value, path, errs);
  else if (isPlainObject(value)) validateObject(schema, value, path, errs);
}

function typeError(path: string, expected: string, actual: string): FieldError {
  return fieldErrors.typeInvalid(path, actual, `${path} in body must be of type ${expected}: "${actual}"`);
}

function validateString(schema: Schema, value: string, path: string, errs: FieldError[]): void {
  if (schema.format && !stringMatchesFormat(schema.format, value)) {
    errs.push(
      fieldErrors.typeInvalid(
        path,
        value,
        `${path} in body must be of type ${schema.format}: ${JSON.stringify(value)}`,
      ),
    );
  }
  const chars = [...value].length;
  if (schema.maxLength !== undefined && chars > schema.maxLength)
    errs.push(fieldErrors.tooLong(path, schema.maxLength));
  if (schema.minLength !== undefined && chars < schema.minLength) {
    errs.push(fieldErrors.invalid(path, value, `${path} in body should be at least ${schema.minLength} chars long`));
  }
  if (schema.pattern !== undefined && !new RegExp(schema.pattern, 'u').test(value)) {
    errs.push(fieldErrors.invalid(path, value, `${path} in body should match '${schema.pattern}'`));
  }
}

function validateNumber(schema: Schema, value: number | bigint, path: string, errs: FieldError[]): void {
  const bounds = schema.format ? INTEGER_FORMAT_BOUNDS[schema.format] : undefined;
  const min = maxOf(schema.minimum, bounds?.[0]);
  const max = minOf(schema.maximum, bounds?.[1]);
  if (min !== undefined && value < min) {
    errs.push(fieldErrors.invalid(path, value, `${path} in body should be greater than or equal to ${min}`));
  }
  if (max !== undefined && value > max) {
    errs.push(fieldErrors.invalid(path, value, `${path} in body should be less than or equal to ${max}`));
  }
}

type Bound = number | bigint | undefined;

function maxOf(a: Bound, b: Bound): Bound {
  if (a === undefined) return b;
  return b === undefined || a > b ? a : b;
}

function minOf(a: Bound, b: Bound): Bound {
  if (a === undefined) return b;
  return b === undefined || a < b ? a : b;
}

function validateArray(schema: Schema, value: unknown[], path: string, errs: FieldError[]): void {
  if (schema.maxItems !== undefined && value.length > schema.maxItems) {
    errs.push(fieldErrors.tooMany(path, value.length, schema.maxItems));
  }
  if (schema.minItems !== undefined && value.length < schema.minItems) {
    errs.push(fieldErrors.invalid(path, value, `${path} in body should have at least ${schema.minItems} items`));
  }
  if (schema.items) {
    const items = schema.items;
    value.forEach((item, i) => {
      walk(items, item, indexPath(path, i), errs);
    });
  }
  validateListType(schema, value, path, errs);
}

/** `set` lists hold no duplicate values; `map` lists hold no two items with the same keys. */
function validateListType(schema: Schema, value: unknown[], path: string, errs: FieldError[]): void {
  const listType = schema['x-orch-list-type'];
  if (listType !== 'set' && listType !== 'map') return;
  if (schema['x-orch-list-duplicates'] === 'allowed') return;
  const keys = schema['x-orch-list-map-keys'] ?? [];
  const seen = new Set<string>();
  value.forEach((item, i) => {
    let identity: unknown = item;
    if (listType === 'map') {
      if (!isPlainObject(item)) return;
      identity = Object.fromEntries(keys.filter((k) => item[k] !== undefined).map((k) => [k, item[k]]));
    }
    const key = canonicalJson(identity);
    if (seen.has(key)) errs.push(fieldErrors.duplicate(indexPath(path, i), identity));
    seen.add(key);
  });
}

function validateObject(schema: Schema, value: Record<string, unknown>, path: string, errs: FieldError[]): void {
  const count = Object.keys(value).length;
  if (schema.maxProperties !== undefined && count > schema.maxProperties) {
    errs.push(fieldErrors.tooMany(path, count, schema.maxProperties));
  }
  if (schema.minProperties !== undefined && count < schema.minProperties) {
    errs.push(
      fieldErrors.invalid(path, value, `${path} in body should have at least ${schema.minProperties} properties`),
    );
  }
  const props = schema.properties ?? {};
  for (const name in props) {
    const v = value[name];
    // Absent properties have nothing to check; their path is not even built.
    if (v !== undefined && Object.hasOwn(props, name)) walk(props[name], v, childPath(path, name), errs);
  }
  const extra = schema.additionalProperties;
  if (extra && typeof extra === 'object') {
    for (const [key, v] of Object.entries(value)) {
      if (!Object.hasOwn(props, key)) walk(extra, v, childPath(path, key), errs);
    }
  }
  for (const name of schema.required ?? []) {
    if (value[name] === undefined) errs.push(fieldErrors.required(childPath(path, name)));
  }
}

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
  walk(schema, obj, new PathStack(path), errs);
  return errs;
}

/**
 * The errors of a value validated on its own, as kube validates a schema's `default`: field paths
 * are under `path`, while messages name the value's place relative to itself (the value itself
 * is the empty name: ` in body must be of type integer: "string"`).
 */
export function validateValueAgainstSchema(schema: Schema, value: unknown, path: string): FieldError[] {
  const errs: FieldError[] = [];
  walk(schema, value, new PathStack(path, true), errs);
  return errs;
}

/**
 * The path of the value being checked, kept as a stack of segments the walk pushes and pops, so
 * that a valid object costs no path strings: one is rendered only for an error.
 */
class PathStack {
  private readonly segments: (string | number)[] = [];
  constructor(
    readonly base: string,
    /** Messages name the path below `base` only (a value validated on its own). */
    private readonly relativeMessages = false,
  ) {}
  push(segment: string | number): void {
    this.segments.push(segment);
  }
  pop(): void {
    this.segments.pop();
  }
  toString(): string {
    return this.render(this.base);
  }
  /** The path as messages name it. */
  message(): string {
    return this.relativeMessages ? this.render('') : this.toString();
  }
  private render(from: string): string {
    let out = from;
    for (const s of this.segments) out = typeof s === 'number' ? indexPath(out, s) : childPath(out, s);
    return out;
  }
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

function walk(schema: Schema, value: unknown, path: PathStack, errs: FieldError[]): void {
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
  if (schema.allOf || schema.anyOf || schema.oneOf || schema.not) validateComposition(schema, value, path, errs);
  if (schema.enum && !schema.enum.some((allowed) => jsonEqual(allowed, value))) {
    const supported = schema.enum.map((v) => (typeof v === 'string' ? v : JSON.stringify(v)));
    errs.push(fieldErrors.notSupported(String(path), value, supported));
  }
  if (typeof value === 'string') validateString(schema, value, path, errs);
  else if (typeof value === 'number' || typeof value === 'bigint') validateNumber(schema, value, path, errs);
  else if (Array.isArray(value)) validateArray(schema, value, path, errs);
  else if (isPlainObject(value)) validateObject(schema, value, path, errs);
}

function typeError(path: PathStack, expected: string, actual: string): FieldError {
  return fieldErrors.typeInvalid(
    String(path),
    actual,
    `${path.message()} in body must be of type ${expected}: "${actual}"`,
  );
}

/** Characters (code points) of `value`, as OpenAPI length limits count them. */
function codePoints(value: string): number {
  let n = 0;
  for (const _ of value) n++;
  return n;
}

function validateString(schema: Schema, value: string, stack: PathStack, errs: FieldError[]): void {
  if (schema.format && !stringMatchesFormat(schema.format, value)) {
    errs.push(
      fieldErrors.typeInvalid(
        String(stack),
        value,
        `${stack.message()} in body must be of type ${schema.format}: ${JSON.stringify(value)}`,
      ),
    );
  }
  // A string has at most as many code points as UTF-16 units: count only when that can matter.
  if (schema.maxLength !== undefined && value.length > schema.maxLength && codePoints(value) > schema.maxLength)
    errs.push(fieldErrors.tooLong(String(stack), schema.maxLength));
  if (schema.minLength !== undefined && codePoints(value) < schema.minLength) {
    errs.push(
      fieldErrors.invalid(
        String(stack),
        value,
        `${stack.message()} in body should be at least ${schema.minLength} chars long`,
      ),
    );
  }
  if (schema.pattern !== undefined && !patternOf(schema as Schema & { pattern: string }).test(value)) {
    errs.push(fieldErrors.invalid(String(stack), value, `${stack.message()} in body should match '${schema.pattern}'`));
  }
}

function validateNumber(schema: Schema, value: number | bigint, stack: PathStack, errs: FieldError[]): void {
  if (schema.multipleOf !== undefined && !isMultipleOf(value, schema.multipleOf)) {
    errs.push(
      fieldErrors.invalid(
        String(stack),
        value,
        `${stack.message()} in body should be a multiple of ${schema.multipleOf}`,
      ),
    );
  }
  const bounds = schema.format ? INTEGER_FORMAT_BOUNDS[schema.format] : undefined;
  if (bounds === undefined && schema.minimum === undefined && schema.maximum === undefined) return;
  const min = maxOf(schema.minimum, bounds?.[0]);
  const max = minOf(schema.maximum, bounds?.[1]);
  // An exclusive bound applies to the schema's own limit, not to a format's range.
  const minExclusive = schema.exclusiveMinimum === true && min === schema.minimum;
  const maxExclusive = schema.exclusiveMaximum === true && max === schema.maximum;
  if (min !== undefined && (value < min || (minExclusive && value === min))) {
    const bound = minExclusive ? 'greater than' : 'greater than or equal to';
    errs.push(fieldErrors.invalid(String(stack), value, `${stack.message()} in body should be ${bound} ${min}`));
  }
  if (max !== undefined && (value > max || (maxExclusive && value === max))) {
    const bound = maxExclusive ? 'less than' : 'less than or equal to';
    errs.push(fieldErrors.invalid(String(stack), value, `${stack.message()} in body should be ${bound} ${max}`));
  }
}

/** kube-openapi's test: the quotient is a whole number (within a relative 1e-9). */
function isMultipleOf(value: number | bigint, factor: number): boolean {
  if (factor <= 0) return true;
  const q = Number(value) / factor;
  if (Number.isInteger(q)) return true;
  const r = Math.round(q);
  return Math.abs(q - r) / Math.max(Math.abs(q) + Math.abs(r), Number.MIN_VALUE) < 1e-9;
}

/** Each schema's pattern is compiled once (schemas are immutable once built). */
const patternMemo = new WeakMap<Schema, RegExp>();

function patternOf(schema: Schema & { pattern: string }): RegExp {
  let re = patternMemo.get(schema);
  if (re === undefined) {
    re = new RegExp(schema.pattern, 'u');
    patternMemo.set(schema, re);
  }
  return re;
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

function validateArray(schema: Schema, value: unknown[], stack: PathStack, errs: FieldError[]): void {
  if (schema.maxItems !== undefined && value.length > schema.maxItems) {
    errs.push(fieldErrors.tooMany(String(stack), value.length, schema.maxItems));
  }
  if (schema.minItems !== undefined && value.length < schema.minItems) {
    errs.push(
      fieldErrors.invalid(
        String(stack),
        value,
        `${stack.message()} in body should have at least ${schema.minItems} items`,
      ),
    );
  }
  if (schema.uniqueItems && new Set(value.map(canonicalJson)).size !== value.length) {
    errs.push(fieldErrors.invalid(String(stack), value, `${stack.message()} in body shouldn't contain duplicates`));
  }
  const items = schema.items;
  if (items) {
    for (let i = 0; i < value.length; i++) {
      stack.push(i);
      walk(items, value[i], stack, errs);
      stack.pop();
    }
  }
  validateListType(schema, value, stack, errs);
}

/** `set` lists hold no duplicate values; `map` lists hold no two items with the same keys. */
function validateListType(schema: Schema, value: unknown[], stack: PathStack, errs: FieldError[]): void {
  const listType = schema['x-orch-list-type'];
  if (listType !== 'set' && listType !== 'map') return;
  if (schema['x-orch-list-duplicates'] === 'allowed') return;
  if (value.length < 2) return;
  const keys = schema['x-orch-list-map-keys'] ?? [];
  const seen = new Set<string>();
  value.forEach((item, i) => {
    let identity: unknown = item;
    if (listType === 'map') {
      if (!isPlainObject(item)) return;
      identity = Object.fromEntries(keys.filter((k) => item[k] !== undefined).map((k) => [k, item[k]]));
    }
    const key = canonicalJson(identity);
    if (seen.has(key)) errs.push(fieldErrors.duplicate(indexPath(String(stack), i), identity));
    seen.add(key);
  });
}

function validateObject(schema: Schema, value: Record<string, unknown>, stack: PathStack, errs: FieldError[]): void {
  if (schema.maxProperties !== undefined || schema.minProperties !== undefined) {
    const count = Object.keys(value).length;
    if (schema.maxProperties !== undefined && count > schema.maxProperties) {
      errs.push(fieldErrors.tooMany(String(stack), count, schema.maxProperties));
    }
    if (schema.minProperties !== undefined && count < schema.minProperties) {
      errs.push(
        fieldErrors.invalid(
          String(stack),
          value,
          `${stack.message()} in body should have at least ${schema.minProperties} properties`,
        ),
      );
    }
  }
  const props = schema.properties;
  const extra = typeof schema.additionalProperties === 'object' ? schema.additionalProperties : undefined;
  if (props !== undefined || extra !== undefined) {
    // Errors come out in the schema's property order, then map entries in the object's order.
    const present = props === undefined ? [] : presentProperties(props, value);
    for (const name of present) {
      stack.push(name);
      walk(props![name]!, value[name], stack, errs);
      stack.pop();
    }
    if (extra !== undefined) {
      for (const key in value) {
        if (props !== undefined && Object.hasOwn(props, key)) continue;
        stack.push(key);
        walk(extra, value[key], stack, errs);
        stack.pop();
      }
    }
  }
  for (const name of schema.required ?? []) {
    if (value[name] === undefined) errs.push(fieldErrors.required(childPath(String(stack), name)));
  }
}

/**
 * The schema properties `value` holds, in the schema's order. A value usually holds a few of its
 * schema's many properties: the smaller side is iterated.
 */
function presentProperties(props: Readonly<Record<string, Schema>>, value: Record<string, unknown>): string[] {
  const order = propertyOrder(props);
  const out: string[] = [];
  const keys = Object.keys(value);
  if (keys.length * 4 < order.names.length) {
    for (const key of keys) if (value[key] !== undefined && order.index.has(key)) out.push(key);
    if (out.length > 1) out.sort((a, b) => order.index.get(a)! - order.index.get(b)!);
    return out;
  }
  for (const name of order.names) if (value[name] !== undefined && Object.hasOwn(value, name)) out.push(name);
  return out;
}

interface PropertyOrder {
  readonly names: readonly string[];
  readonly index: ReadonlyMap<string, number>;
}

/** Property names of a schema with their positions, computed once per (immutable) schema. */
const orderMemo = new WeakMap<object, PropertyOrder>();

function propertyOrder(props: Readonly<Record<string, Schema>>): PropertyOrder {
  let order = orderMemo.get(props);
  if (order === undefined) {
    const names = Object.keys(props);
    order = { names, index: new Map(names.map((n, i) => [n, i])) };
    orderMemo.set(props, order);
  }
  return order;
}

/**
 * `allOf`, `anyOf`, `oneOf` and `not`, as kube-openapi reports them: the errors of the failing
 * alternatives (all of them for `allOf`; the closest one, with the fewest errors, for `anyOf` and
 * `oneOf`), then one error naming the junctor. That error is not a field error in kube: it lands at
 * the validation's root (`<nil>` when that is the object itself) with an empty value.
 */
function validateComposition(schema: Schema, value: unknown, stack: PathStack, errs: FieldError[]): void {
  const at = JSON.stringify(stack.message());
  const junctorError = (message: string) => fieldErrors.invalid(stack.base || '<nil>', '', message);
  const run = (sub: Schema): FieldError[] => {
    const out: FieldError[] = [];
    walk(sub, value, stack, out);
    return out;
  };
  if (schema.anyOf && schema.anyOf.length > 0) {
    const results = schema.anyOf.map(run);
    if (!results.some((r) => r.length === 0)) {
      errs.push(junctorError(`${at} must validate at least one schema (anyOf)`));
      errs.push(...closest(results));
    }
  }
  if (schema.oneOf && schema.oneOf.length > 0) {
    const results = schema.oneOf.map(run);
    const valid = results.filter((r) => r.length === 0).length;
    if (valid === 0) {
      errs.push(junctorError(`${at} must validate one and only one schema (oneOf). Found none valid`));
      errs.push(...closest(results));
    } else if (valid > 1) {
      errs.push(junctorError(`${at} must validate one and only one schema (oneOf). Found ${valid} valid alternatives`));
    }
  }
  if (schema.allOf && schema.allOf.length > 0) {
    const results = schema.allOf.map(run);
    const valid = results.filter((r) => r.length === 0).length;
    for (const r of results) errs.push(...r);
    if (valid !== results.length) {
      const none = valid === 0 ? '. None validated' : '';
      errs.push(junctorError(`${at} must validate all the schemas (allOf)${none}`));
    }
  }
  if (schema.not && run(schema.not).length === 0) errs.push(junctorError(`${at} must not validate the schema (not)`));
}

function closest(results: readonly FieldError[][]): FieldError[] {
  let best = results[0];
  for (const r of results) if (r.length < best.length) best = r;
  return best;
}

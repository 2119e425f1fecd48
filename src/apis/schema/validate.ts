import { type FieldError, fieldErrors } from '../meta/field-error.js';
import { childPath, indexPath } from './field-path.js';
import { canonicalJson, isPlainObject, jsonTypeName } from './json-value.js';
import type { Schema } from './schema.js';
import { Expect, type ValidationNode, validationNode } from './validation-node.js';

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
  walk(validationNode(schema), obj, new PathStack(path), errs);
  return errs;
}

/**
 * The errors of a value validated on its own, as kube validates a schema's `default`: field paths
 * are under `path`, while messages name the value's place relative to itself (the value itself
 * is the empty name: ` in body must be of type integer: "string"`).
 */
export function validateValueAgainstSchema(schema: Schema, value: unknown, path: string): FieldError[] {
  const errs: FieldError[] = [];
  walk(validationNode(schema), value, new PathStack(path, true), errs);
  return errs;
}

/**
 * The path of the value being checked, kept as a stack of segments the walk pushes and pops, so
 * that a valid object costs no path strings: one is rendered only for an error.
 */
class PathStack {
  private readonly segments: (string | number)[] = [];
  /** An array per depth for {@link presentProperties}: an object's pairs are read before deeper ones. */
  private readonly pairs: unknown[][] = [];
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
  /**
   * An array that is this depth's own until the walk leaves it (no array per object); it may
   * hold another object's pairs past the count its user keeps.
   */
  pairsHere(): unknown[] {
    const depth = this.segments.length;
    this.pairs[depth] ??= [];
    return this.pairs[depth];
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

function hasExpectedType(node: ValidationNode, value: unknown): boolean {
  switch (node.expect) {
    case Expect.Any:
      return true;
    case Expect.IntOrString:
      return typeof value === 'string' || isInteger(value);
    case Expect.Object:
      return isPlainObject(value);
    case Expect.Array:
      return Array.isArray(value);
    case Expect.String:
      return typeof value === 'string';
    case Expect.Boolean:
      return typeof value === 'boolean';
    case Expect.Integer:
      return isInteger(value);
    case Expect.Number:
      return (typeof value === 'number' && Number.isFinite(value)) || typeof value === 'bigint';
    default:
      return false;
  }
}

/** A whole number: a whole `number`, or a `bigint` (how integers beyond 2^53 are held). */
function isInteger(value: unknown): boolean {
  return Number.isInteger(value) || typeof value === 'bigint';
}

function walk(node: ValidationNode, value: unknown, path: PathStack, errs: FieldError[]): void {
  if (value === undefined) return;
  const label = node.label;
  if (value === null) {
    if (!node.nullable && label) errs.push(typeError(path, label, 'null'));
    return;
  }
  if (!hasExpectedType(node, value)) {
    errs.push(typeError(path, label ?? '', jsonTypeName(value)));
    return;
  }
  if (node.composed) validateComposition(node.schema, value, path, errs);
  const allowed = node.enumValues;
  if (allowed !== undefined && !node.enumAllows(value)) {
    const supported = allowed.map((v) => (typeof v === 'string' ? v : JSON.stringify(v)));
    errs.push(fieldErrors.notSupported(String(path), value, supported));
  }
  if (typeof value === 'string') {
    if (node.checksString) validateString(node, value, path, errs);
  } else if (typeof value === 'number' || typeof value === 'bigint') {
    if (node.checksNumber) validateNumber(node, value, path, errs);
  } else if (Array.isArray(value)) validateArray(node, value, path, errs);
  else if (isPlainObject(value)) validateObject(node, value, path, errs);
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

function validateString(node: ValidationNode, value: string, stack: PathStack, errs: FieldError[]): void {
  if (node.format !== undefined && node.formatCheck !== undefined && !node.formatCheck(value)) {
    errs.push(
      fieldErrors.typeInvalid(
        String(stack),
        value,
        `${stack.message()} in body must be of type ${node.format}: ${JSON.stringify(value)}`,
      ),
    );
  }
  // A string has at most as many code points as UTF-16 units: count only when that can matter.
  const { maxLength, minLength } = node;
  if (maxLength !== undefined && value.length > maxLength && codePoints(value) > maxLength)
    errs.push(fieldErrors.tooLong(String(stack), maxLength));
  if (minLength !== undefined && codePoints(value) < minLength) {
    errs.push(
      fieldErrors.invalid(
        String(stack),
        value,
        `${stack.message()} in body should be at least ${minLength} chars long`,
      ),
    );
  }
  if (node.pattern !== undefined && !node.patternRegExp().test(value)) {
    errs.push(fieldErrors.invalid(String(stack), value, `${stack.message()} in body should match '${node.pattern}'`));
  }
}

function validateNumber(node: ValidationNode, value: number | bigint, stack: PathStack, errs: FieldError[]): void {
  const { multipleOf, min, max, minExclusive, maxExclusive } = node;
  if (multipleOf !== undefined && !isMultipleOf(value, multipleOf)) {
    errs.push(
      fieldErrors.invalid(String(stack), value, `${stack.message()} in body should be a multiple of ${multipleOf}`),
    );
  }
  if (!node.hasBounds) return;
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

function validateArray(node: ValidationNode, value: unknown[], stack: PathStack, errs: FieldError[]): void {
  const { maxItems, minItems } = node;
  if (maxItems !== undefined && value.length > maxItems) {
    errs.push(fieldErrors.tooMany(String(stack), value.length, maxItems));
  }
  if (minItems !== undefined && value.length < minItems) {
    errs.push(
      fieldErrors.invalid(String(stack), value, `${stack.message()} in body should have at least ${minItems} items`),
    );
  }
  if (node.uniqueItems && new Set(value.map(canonicalJson)).size !== value.length) {
    errs.push(fieldErrors.invalid(String(stack), value, `${stack.message()} in body shouldn't contain duplicates`));
  }
  const items = node.items();
  if (items) {
    for (let i = 0; i < value.length; i++) {
      stack.push(i);
      walk(items, value[i], stack, errs);
      stack.pop();
    }
  }
  if (node.listType !== undefined && value.length >= 2) validateListType(node, value, stack, errs);
}

/** `set` lists hold no duplicate values; `map` lists hold no two items with the same keys. */
function validateListType(node: ValidationNode, value: unknown[], stack: PathStack, errs: FieldError[]): void {
  const isMap = node.listType === 'map';
  const seen = new Set<string>();
  for (let i = 0; i < value.length; i++) {
    if (!(i in value)) continue; // a hole, as `forEach` skips it
    const item = value[i];
    if (isMap && !isPlainObject(item)) continue;
    const key = isMap ? node.listItemKey(item as Record<string, unknown>) : canonicalJson(item);
    if (seen.has(key)) {
      const identity = isMap ? mapItemIdentity(node, item as Record<string, unknown>) : item;
      errs.push(fieldErrors.duplicate(indexPath(String(stack), i), identity));
    }
    seen.add(key);
  }
}

/** A `map` list item's keys that are set, as the duplicate error shows them. */
function mapItemIdentity(node: ValidationNode, item: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(node.listMapKeys.filter((k) => item[k] !== undefined).map((k) => [k, item[k]]));
}

function validateObject(
  node: ValidationNode,
  value: Record<string, unknown>,
  stack: PathStack,
  errs: FieldError[],
): void {
  const { maxProperties, minProperties } = node;
  if (maxProperties !== undefined || minProperties !== undefined) {
    const count = Object.keys(value).length;
    if (maxProperties !== undefined && count > maxProperties) {
      errs.push(fieldErrors.tooMany(String(stack), count, maxProperties));
    }
    if (minProperties !== undefined && count < minProperties) {
      errs.push(
        fieldErrors.invalid(
          String(stack),
          value,
          `${stack.message()} in body should have at least ${minProperties} properties`,
        ),
      );
    }
  }
  const props = node.props;
  if (props !== undefined || node.hasExtra) {
    // Errors come out in the schema's property order, then map entries in the object's order.
    if (props !== undefined) {
      const present = stack.pairsHere();
      const count = presentProperties(node, value, present);
      for (let i = 0; i < count; i += 2) {
        const index = present[i] as number;
        stack.push(node.propNames[index]!);
        walk(node.property(index), present[i + 1], stack, errs);
        stack.pop();
      }
    }
    if (node.hasExtra) {
      const extra = node.extra();
      for (const key in value) {
        if (props !== undefined && Object.hasOwn(props, key)) continue;
        stack.push(key);
        walk(extra, value[key], stack, errs);
        stack.pop();
      }
    }
  }
  const required = node.required;
  for (let i = 0; i < required.length; i++) {
    const name = required[i]!;
    if (value[name] === undefined) errs.push(fieldErrors.required(childPath(String(stack), name)));
  }
}

/**
 * The schema properties `value` holds, in the schema's order, written into `pairs` as pairs
 * (position in {@link ValidationNode.propNames}, then the value); returns how many entries. A
 * value usually holds a few of its schema's many properties, and looking up a name the object
 * lacks costs more than looking up one of its keys in the schema's index: the object's keys are
 * iterated (`for…in`, which also reads each key's value without a generic lookup).
 */
function presentProperties(node: ValidationNode, value: Record<string, unknown>, pairs: unknown[]): number {
  const index = node.propIndex;
  let count = 0;
  for (const key in value) {
    const v = value[key];
    if (v === undefined) continue;
    const at = index.get(key);
    if (at !== undefined) count = insertPairInOrder(pairs, count, at, v);
  }
  return count;
}

/**
 * Inserts the pair `at`, `v` into the first `count` entries of `pairs`, ordered by position, and
 * returns the new count. Objects mostly list their keys in the schema's order (or close to it),
 * so this is usually an append.
 */
function insertPairInOrder(pairs: unknown[], count: number, at: number, v: unknown): number {
  let i = count;
  while (i > 0 && (pairs[i - 2] as number) > at) {
    pairs[i] = pairs[i - 2];
    pairs[i + 1] = pairs[i - 1];
    i -= 2;
  }
  pairs[i] = at;
  pairs[i + 1] = v;
  return count + 2;
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
    walk(validationNode(sub), value, stack, out);
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

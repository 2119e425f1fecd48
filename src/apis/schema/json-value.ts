/**
 * Small predicates and helpers over decoded JSON values, shared by the schema walkers. Integers
 * beyond 2^53 are `bigint`s in these values (see util/json-text.ts).
 */

import { parseJson, stringifyJson } from '../../util/json-text.js';

/** A JSON object (not an array, not null). */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The JSON type name of a value as OpenAPI validation reports it (`integer` for whole numbers). */
export function jsonTypeName(value: unknown): string {
  if (value === null || value === undefined) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  if (typeof value === 'bigint') return 'integer';
  return typeof value;
}

/**
 * Deep equality of JSON values. Object key order does not matter; an absent key and a key whose
 * value is `undefined` are the same.
 */
export function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    return a.every((v, i) => jsonEqual(v, b[i]));
  }
  if (isPlainObject(a) && isPlainObject(b)) {
    const ka = Object.keys(a).filter((k) => a[k] !== undefined);
    const kb = Object.keys(b).filter((k) => b[k] !== undefined);
    if (ka.length !== kb.length) return false;
    return ka.every((k) => Object.hasOwn(b, k) && jsonEqual(a[k], b[k]));
  }
  return false;
}

/** A JSON serialization with object keys sorted, for use as a map or set key. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (isPlainObject(value)) {
    const keys = Object.keys(value)
      .filter((k) => value[k] !== undefined)
      .sort();
    return `{${keys.map((k) => `${JSON.stringify(k)}:${canonicalJson(value[k])}`).join(',')}}`;
  }
  if (typeof value === 'bigint') return value.toString();
  return JSON.stringify(value) ?? 'null';
}

/** A deep copy of a JSON value, as a JSON round trip makes it (`undefined` members dropped). */
export function cloneJson<T>(value: T): T {
  if (value === undefined) return value;
  return parseJson(stringifyJson(value) as string) as T;
}

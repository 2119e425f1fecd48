import { SchemaObject, schemaJson } from './schema-object.js';

/**
 * JSON values in and out of CEL where no schema says more. Going in, a whole number is a CEL
 * `int` (a `bigint`), as Go's JSON decoder makes an integral literal an `int64`; any other number
 * is a `double`. Coming out, an `int` that fits a JavaScript number safely becomes one.
 */

/**
 * `value` (decoded JSON, integers beyond 2^53 already `bigint`s) as a dynamic CEL value. Copies
 * only the containers whose content changes; the input is never modified.
 */
export function toCelDynamic(value: unknown): unknown {
  if (typeof value === 'number') return Number.isSafeInteger(value) ? BigInt(value) : value;
  if (typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) {
    let out: unknown[] | undefined;
    for (let i = 0; i < value.length; i++) {
      const v = toCelDynamic(value[i]);
      if (v === value[i]) continue;
      out ??= value.slice();
      out[i] = v;
    }
    return out ?? value;
  }
  const proto = Object.getPrototypeOf(value);
  if (proto !== Object.prototype && proto !== null) return value; // already a CEL value (Date, bytes, ...)
  const obj = value as Record<string, unknown>;
  let out: Record<string, unknown> | undefined;
  for (const key in obj) {
    if (!Object.hasOwn(obj, key)) continue;
    const v = toCelDynamic(obj[key]);
    if (v === obj[key]) continue;
    out ??= copyObject(obj);
    setOwn(out, key, v);
  }
  return out ?? value;
}

/** A shallow copy of the own enumerable properties (spread defines them, so `__proto__` stays a key). */
function copyObject(obj: Record<string, unknown>): Record<string, unknown> {
  return { ...obj };
}

/** `o[key] = v`, also for `__proto__`, which as an assignment would set the prototype. */
function setOwn(o: Record<string, unknown>, key: string, v: unknown): void {
  if (key === '__proto__')
    Object.defineProperty(o, key, { value: v, enumerable: true, writable: true, configurable: true });
  else o[key] = v;
}

/**
 * A CEL result as a JSON-like value: `int` as a number when it is a safe integer (else the
 * `bigint`), lists as arrays, maps as plain objects, schema objects as the JSON they were read
 * from. Timestamps (`Date`), durations, bytes (`Uint8Array`), `uint`s, optionals and types stay
 * CEL values.
 */
export function fromCel(value: unknown): unknown {
  switch (typeof value) {
    case 'bigint':
      return value >= MIN_SAFE && value <= MAX_SAFE ? Number(value) : value;
    case 'object': {
      if (value === null) return null;
      if (Array.isArray(value)) return value.map(fromCel);
      if (value instanceof SchemaObject) return schemaJson(value);
      if (value instanceof Set) return [...value].map(fromCel);
      if (value instanceof Map) return Object.fromEntries([...value].map(([k, v]) => [k, fromCel(v)]));
      const proto = Object.getPrototypeOf(value);
      if (proto === Object.prototype || proto === null) {
        return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, fromCel(v)]));
      }
      return value;
    }
    default:
      return value;
  }
}

const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER);
const MIN_SAFE = -MAX_SAFE;

/**
 * Own-property access on decoded JSON objects. Patches are user input, so a key such as
 * `__proto__` or `constructor` must read and write a plain data property, never the prototype.
 */

export type JsonObject = Record<string, unknown>;

/** Whether `obj` has its own property `key`. */
export function hasKey(obj: JsonObject, key: string): boolean {
  return Object.hasOwn(obj, key);
}

/** The own property `key` of `obj`, or `undefined`. */
export function getKey(obj: JsonObject, key: string): unknown {
  return Object.hasOwn(obj, key) ? obj[key] : undefined;
}

/** Sets the own data property `key` (defining it, so `__proto__` stays an ordinary key). */
export function setKey(obj: JsonObject, key: string, value: unknown): void {
  Object.defineProperty(obj, key, { value, writable: true, enumerable: true, configurable: true });
}

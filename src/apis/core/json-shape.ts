/**
 * Shape checks for defaulting code that runs before schema validation: it must neither crash on
 * nor repair fields of the wrong type (validation reports those).
 */

/** A JSON object (not null, not an array). */
export function isPlainObject(value: unknown): value is Record<string, unknown> & object {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** The value when it is an array, else an empty one. */
export function arrayOf<T>(value: T[] | undefined | unknown): T[] {
  return Array.isArray(value) ? (value as T[]) : [];
}

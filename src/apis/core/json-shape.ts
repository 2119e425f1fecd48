/**
 * Shape checks for defaulting code that runs before schema validation: it must neither crash on
 * nor repair fields of the wrong type (validation reports those).
 */

/** The value when it is an array, else an empty one. */
export function arrayOf<T>(value: T[] | undefined | unknown): T[] {
  return Array.isArray(value) ? (value as T[]) : [];
}

import type { ApiObject } from '../object.js';
import type { Schema } from '../schema/schema.js';
import type { TableColumnDefinition } from './table-types.js';

/**
 * The description of the field at `path` in `schema`, if the schema carries one (kube takes
 * column descriptions from its Go types' documentation; Orch's schemas carry no such prose, so
 * callers fall back to a description of their own); `''` when there is none.
 */
export function describeField(schema: Schema, ...path: string[]): string {
  let cur: Schema | undefined = schema;
  for (const p of path) cur = cur?.properties?.[p];
  return cur?.description ?? '';
}

/** A column definition with kube's defaults (`format: ''`, `priority: 0`). */
export function column(
  name: string,
  type: string,
  description: string,
  extra: { readonly format?: string; readonly priority?: number } = {},
): TableColumnDefinition {
  return Object.freeze({ name, type, format: extra.format ?? '', description, priority: extra.priority ?? 0 });
}

/** `Name`: the object name column every printer starts with. */
export const NAME_COLUMN: TableColumnDefinition = column(
  'Name',
  'string',
  'The name of the object, unique among objects of its kind in its namespace (or in the cluster).',
  { format: 'name' },
);

/** The description of the columns that show when an object was created. */
export const CREATED_DESCRIPTION = 'When the server created the object, set by the server and never changed.';

/** `Age`: the creation timestamp as a human duration. */
export const AGE_COLUMN: TableColumnDefinition = column('Age', 'string', CREATED_DESCRIPTION);

/** The value at `path` in `obj` when it is a string, else `''` (Go's zero value). */
export function stringAt(obj: unknown, ...path: string[]): string {
  const v = valueAt(obj, ...path);
  return typeof v === 'string' ? v : '';
}

/** The value at `path` in `obj`, undefined when any step is missing or not an object. */
export function valueAt(obj: unknown, ...path: string[]): unknown {
  let cur = obj;
  for (const p of path) {
    if (cur === null || typeof cur !== 'object' || Array.isArray(cur)) return undefined;
    cur = (cur as Record<string, unknown>)[p];
  }
  return cur;
}

/** Number of entries of a map field (`len(map)` in Go; 0 when absent). */
export function entryCount(value: unknown): number {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? Object.keys(value).length : 0;
}

/** Number of items of a list field (`len(slice)` in Go; 0 when absent). */
export function itemCount(value: unknown): number {
  return Array.isArray(value) ? value.length : 0;
}

/** `obj.metadata.name`, `''` when unset. */
export function objectName(obj: ApiObject): string {
  return stringAt(obj, 'metadata', 'name');
}

// Go's unicode.IsSpace: ASCII whitespace, NEL, NBSP and the Unicode space separators.
const GO_SPACE = '[\\t\\n\\v\\f\\r \\u0085\\u00a0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000]';
const GO_TRIM = new RegExp(`^${GO_SPACE}+|${GO_SPACE}+$`, 'g');

/** Go's `strings.TrimSpace`. */
export function goTrimSpace(value: string): string {
  return value.replace(GO_TRIM, '');
}

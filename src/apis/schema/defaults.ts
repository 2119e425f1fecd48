import { cloneJson, isPlainObject } from './json-value.js';
import type { Schema } from './schema.js';
import { canonicalTimestamp } from './time-format.js';

/**
 * Applies schema defaults in place, as kube's structural defaulting does on decode:
 *
 * - a property that is absent, or `null` while its schema is not `nullable`, gets a deep copy of
 *   its `default`;
 * - a `null` without a default on a non-nullable property (or map entry) is removed;
 * - defaults apply inside objects that exist; a missing parent object is not created unless it
 *   has a default itself (then defaulting continues inside the copy).
 *
 * Idempotent; pure apart from the mutation of `obj`; synchronous.
 */
export function applyDefaults(schema: Schema, obj: unknown): void {
  if (Array.isArray(obj)) {
    if (schema.items) for (const item of obj) applyDefaults(schema.items, item);
    return;
  }
  if (!isPlainObject(obj)) return;
  const props = schema.properties ?? {};
  for (const [name, propSchema] of propertyEntries(schema)) {
    defaultEntry(obj, name, propSchema);
  }
  const extra = schema.additionalProperties;
  if (extra && typeof extra === 'object') {
    for (const key of Object.keys(obj)) {
      if (!Object.hasOwn(props, key)) defaultEntry(obj, key, extra);
    }
  }
}

function defaultEntry(obj: Record<string, unknown>, key: string, schema: Schema): void {
  const current = obj[key];
  if (current === undefined || (current === null && !schema.nullable)) {
    if (schema.default !== undefined) obj[key] = cloneJson(schema.default);
    else if (current === null) delete obj[key];
  }
  if (obj[key] !== undefined && obj[key] !== null) applyDefaults(schema, obj[key]);
}

/**
 * Rewrites, in place, every timestamp whose schema carries `x-orch-time-precision` into its
 * canonical UTC form: `Time` to whole seconds (`2006-01-02T15:04:05Z`), `MicroTime` to six
 * fractional digits (`2006-01-02T15:04:05.000000Z`), as Go's `metav1` types serialize them.
 * Values that do not parse are left for validation to report. Synchronous.
 */
export function canonicalizeTimestamps(schema: Schema, obj: unknown): void {
  if (Array.isArray(obj)) {
    if (!schema.items) return;
    obj.forEach((item, i) => {
      obj[i] = canonicalValue(schema.items as Schema, item);
    });
    return;
  }
  if (!isPlainObject(obj)) return;
  const props = schema.properties ?? {};
  for (const [name, propSchema] of propertyEntries(schema)) {
    if (obj[name] !== undefined) obj[name] = canonicalValue(propSchema, obj[name]);
  }
  const extra = schema.additionalProperties;
  if (extra && typeof extra === 'object') {
    for (const key of Object.keys(obj)) {
      if (!Object.hasOwn(props, key)) obj[key] = canonicalValue(extra, obj[key]);
    }
  }
}

function canonicalValue(schema: Schema, value: unknown): unknown {
  const precision = schema['x-orch-time-precision'];
  if (precision && typeof value === 'string') return canonicalTimestamp(value, precision) ?? value;
  if (holdsTimestamps(schema)) canonicalizeTimestamps(schema, value);
  return value;
}

/**
 * Derived facts of a schema, computed once per schema object: its properties as entries (the
 * walks above run per request) and whether any timestamp lies below it. Schemas are not changed
 * after they are built (built-in ones are frozen), so the facts stay true.
 */
const entriesMemo = new WeakMap<Schema, readonly (readonly [string, Schema])[]>();
const timestampsMemo = new WeakMap<Schema, boolean>();

function propertyEntries(schema: Schema): readonly (readonly [string, Schema])[] {
  let entries = entriesMemo.get(schema);
  if (entries === undefined) {
    entries = Object.entries(schema.properties ?? {});
    entriesMemo.set(schema, entries);
  }
  return entries;
}

/** Whether a value of `schema` may hold a timestamp (a recursive schema counts as yes). */
function holdsTimestamps(schema: Schema): boolean {
  const known = timestampsMemo.get(schema);
  if (known !== undefined) return known;
  timestampsMemo.set(schema, true); // a schema that reaches itself: assume yes while looking
  const extra = schema.additionalProperties;
  const holds =
    schema['x-orch-time-precision'] !== undefined ||
    (schema.items !== undefined && holdsTimestamps(schema.items)) ||
    (typeof extra === 'object' && holdsTimestamps(extra)) ||
    Object.values(schema.properties ?? {}).some(holdsTimestamps);
  timestampsMemo.set(schema, holds);
  return holds;
}

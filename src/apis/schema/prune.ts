import { childPath, indexPath } from './field-path.js';
import { isPlainObject } from './json-value.js';
import type { Schema } from './schema.js';

const META_FIELDS = new Set(['apiVersion', 'kind', 'metadata']);

/**
 * Removes, in place, every object field the schema does not declare and returns the paths of the
 * removed fields (`spec.x`, `spec.items[0].y`, map entries as `data.key.z`), in the order met.
 * The caller turns them into `fieldValidation` warnings (`unknown field "spec.x"`) or a Strict
 * rejection. Follows kube's structural pruning:
 *
 * - `x-orch-preserve-unknown-fields` keeps undeclared fields but still prunes inside declared ones;
 * - `x-orch-embedded-resource` objects keep `apiVersion`, `kind` and `metadata` as they are;
 * - `additionalProperties` (schema or `true`) makes every key known;
 * - an object whose schema declares nothing (no properties, no additionalProperties, no
 *   preserve-unknown-fields) loses all its fields.
 *
 * Scalars and values of the wrong type are left alone (validation reports those). Pure apart
 * from the mutation of `obj`; synchronous.
 */
export function pruneUnknownFields(schema: Schema, obj: unknown, path = ''): string[] {
  const removed: string[] = [];
  prune(schema, obj, new Where(path), removed);
  return removed;
}

/**
 * The path of the value being pruned, kept as segments the walk pushes and pops: a path string
 * is made only for a removed field.
 */
class Where {
  private readonly segments: (string | number)[] = [];
  constructor(private readonly base: string) {}
  push(segment: string | number): void {
    this.segments.push(segment);
  }
  pop(): void {
    this.segments.pop();
  }
  /** The path of `key` below the current value. */
  child(key: string): string {
    let out = this.base;
    for (const s of this.segments) out = typeof s === 'number' ? indexPath(out, s) : childPath(out, s);
    return childPath(out, key);
  }
}

function prune(schema: Schema | undefined, value: unknown, where: Where, removed: string[]): void {
  if (schema?.['x-orch-preserve-unknown-fields']) {
    pruneDeclaredOnly(schema, value, where, removed);
    return;
  }
  if (Array.isArray(value)) {
    const items = schema?.items;
    for (let i = 0; i < value.length; i++) {
      where.push(i);
      prune(items, value[i], where, removed);
      where.pop();
    }
    return;
  }
  if (!isPlainObject(value)) return;
  for (const key of Object.keys(value)) {
    if (schema?.['x-orch-embedded-resource'] && META_FIELDS.has(key)) continue;
    const prop = schema?.properties?.[key];
    const extra = schema?.additionalProperties;
    if (prop) pruneBelow(prop, value[key], key, where, removed);
    else if (extra === true) continue;
    else if (extra) pruneBelow(extra, value[key], key, where, removed);
    else {
      delete value[key];
      removed.push(where.child(key));
    }
  }
}

function pruneBelow(schema: Schema, value: unknown, key: string, where: Where, removed: string[]): void {
  // Scalars hold no fields: no need to go down.
  if (value === null || typeof value !== 'object') return;
  where.push(key);
  prune(schema, value, where, removed);
  where.pop();
}

/** Under preserve-unknown-fields: keep unknown keys, prune inside the declared ones. */
function pruneDeclaredOnly(schema: Schema, value: unknown, where: Where, removed: string[]): void {
  if (Array.isArray(value)) {
    const items = schema.items;
    if (!items) return;
    for (let i = 0; i < value.length; i++) {
      where.push(i);
      pruneDeclaredOnly(items, value[i], where, removed);
      where.pop();
    }
    return;
  }
  if (!isPlainObject(value)) return;
  for (const key of Object.keys(value)) {
    if (schema['x-orch-embedded-resource'] && META_FIELDS.has(key)) continue;
    const prop = schema.properties?.[key];
    const extra = schema.additionalProperties;
    if (prop) pruneBelow(prop, value[key], key, where, removed);
    else if (extra && typeof extra === 'object') pruneBelow(extra, value[key], key, where, removed);
  }
}

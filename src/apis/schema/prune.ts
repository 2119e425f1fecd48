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
  prune(schema, obj, path, removed);
  return removed;
}

function prune(schema: Schema | undefined, value: unknown, path: string, removed: string[]): void {
  if (schema?.['x-orch-preserve-unknown-fields']) {
    pruneDeclaredOnly(schema, value, path, removed);
    return;
  }
  if (Array.isArray(value)) {
    value.forEach((item, i) => {
      prune(schema?.items, item, indexPath(path, i), removed);
    });
    return;
  }
  if (!isPlainObject(value)) return;
  for (const [key, v] of Object.entries(value)) {
    if (schema?.['x-orch-embedded-resource'] && META_FIELDS.has(key)) continue;
    const prop = schema?.properties?.[key];
    const extra = schema?.additionalProperties;
    if (prop) prune(prop, v, childPath(path, key), removed);
    else if (extra === true) continue;
    else if (extra) prune(extra, v, childPath(path, key), removed);
    else {
      delete value[key];
      removed.push(childPath(path, key));
    }
  }
}

/** Under preserve-unknown-fields: keep unknown keys, prune inside the declared ones. */
function pruneDeclaredOnly(schema: Schema, value: unknown, path: string, removed: string[]): void {
  if (Array.isArray(value)) {
    value.forEach((item, i) => {
      if (schema.items) pruneDeclaredOnly(schema.items, item, indexPath(path, i), removed);
    });
    return;
  }
  if (!isPlainObject(value)) return;
  for (const [key, v] of Object.entries(value)) {
    if (schema['x-orch-embedded-resource'] && META_FIELDS.has(key)) continue;
    const prop = schema.properties?.[key];
    const extra = schema.additionalProperties;
    if (prop) prune(prop, v, childPath(path, key), removed);
    else if (extra && typeof extra === 'object') prune(extra, v, childPath(path, key), removed);
  }
}

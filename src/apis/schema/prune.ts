import { childPath, indexPath } from './field-path.js';
import { isPlainObject } from './json-value.js';
import type { Schema } from './schema.js';
import { schemaNodes } from './schema-nodes.js';

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
  prune(nodeOf(schema), obj, new Where(path), removed);
  return removed;
}

/**
 * The path of the value being pruned, kept as segments the walk pushes and pops: a path string
 * is made only for a removed field.
 */
export class Where {
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

/** What pruning needs of a schema node (see `schemaNodes`). */
interface PruneNode {
  readonly preservesUnknownFields: boolean;
  readonly embeddedResource: boolean;
  /** The nodes of the declared properties. */
  readonly fields: ReadonlyMap<string, PruneNode>;
  readonly items: PruneNode | undefined;
  /** `additionalProperties`: the node of the values, `true` (any key), or none. */
  readonly extra: PruneNode | true | undefined;
}

const nodeOf = schemaNodes<PruneNode>({
  facts: (schema, fields) => ({
    preservesUnknownFields: !!schema['x-orch-preserve-unknown-fields'],
    embeddedResource: !!schema['x-orch-embedded-resource'],
    fields,
    items: undefined,
    extra: schema.additionalProperties === true ? true : undefined,
  }),
  linkItems: (node, child) => (node.items = child),
  linkValues: (node, child) => (node.extra = child),
});

/** The node of no schema, or of one that declares nothing: every object field below is unknown. */
const EMPTY = nodeOf(Object.freeze({}));

/** The node of a declared field: only the schema's own `properties` (never `toString` and such). */
function declaredField(node: PruneNode, key: string): PruneNode | undefined {
  return node.fields.get(key);
}

function prune(node: PruneNode, value: unknown, where: Where, removed: string[]): void {
  if (node.preservesUnknownFields) {
    pruneDeclaredOnly(node, value, where, removed);
    return;
  }
  if (Array.isArray(value)) {
    const items = node.items ?? EMPTY;
    for (let i = 0; i < value.length; i++) {
      const item = value[i];
      // Scalars hold no fields: no need to go down.
      if (item === null || typeof item !== 'object') continue;
      where.push(i);
      prune(items, item, where, removed);
      where.pop();
    }
    return;
  }
  if (!isPlainObject(value)) return;
  for (const key in value) {
    if (node.embeddedResource && META_FIELDS.has(key)) continue;
    const field = declaredField(node, key);
    const extra = node.extra;
    if (field) pruneBelow(field, value[key], key, where, removed);
    else if (extra === true) continue;
    else if (extra) pruneBelow(extra, value[key], key, where, removed);
    else {
      delete value[key];
      removed.push(where.child(key));
    }
  }
}

function pruneBelow(node: PruneNode, value: unknown, key: string, where: Where, removed: string[]): void {
  // Scalars hold no fields: no need to go down.
  if (value === null || typeof value !== 'object') return;
  where.push(key);
  prune(node, value, where, removed);
  where.pop();
}

/** Under preserve-unknown-fields: keep unknown keys, prune inside the declared ones. */
function pruneDeclaredOnly(node: PruneNode, value: unknown, where: Where, removed: string[]): void {
  if (Array.isArray(value)) {
    const items = node.items;
    if (!items) return;
    for (let i = 0; i < value.length; i++) {
      where.push(i);
      pruneDeclaredOnly(items, value[i], where, removed);
      where.pop();
    }
    return;
  }
  if (!isPlainObject(value)) return;
  for (const key in value) {
    if (node.embeddedResource && META_FIELDS.has(key)) continue;
    const field = declaredField(node, key);
    const extra = node.extra;
    if (field) pruneBelow(field, value[key], key, where, removed);
    else if (extra !== undefined && extra !== true) pruneBelow(extra, value[key], key, where, removed);
  }
}

import { Quantity } from '../../util/go-quantity.js';
import { isPlainObject } from './json-value.js';
import type { Schema } from './schema.js';
import { schemaNodes } from './schema-nodes.js';
import { reachTest } from './schema-reach.js';

/**
 * Quantities (`resource.Quantity`) as kube's typed decoding treats them, found by their schema:
 * numbers are accepted, and every quantity is written back in its canonical form (`0.5` →
 * `500m`, `1024Mi` → `1Gi`).
 */

/** Whether a schema is a quantity's. */
export function isQuantitySchema(schema: Schema): boolean {
  return schema['x-orch-protobuf-message'] === 'Quantity';
}

/** Whether a value of a schema may hold a quantity: walks skip subtrees that cannot. */
export const holdsQuantities = reachTest(isQuantitySchema);

/** The canonical form of a quantity value; throws `QuantityError` for a malformed one. */
export function canonicalQuantity(value: unknown): unknown {
  if (typeof value === 'number' || typeof value === 'bigint') return Quantity.parse(String(value)).toString();
  if (typeof value === 'string') return Quantity.parse(value.trim()).toString();
  return value;
}

/**
 * What the walk needs of a schema node (see `schemaNodes`): whether it is a quantity, and only
 * the properties, map values and items that are or may hold one.
 */
interface QuantityNode {
  readonly quantity: boolean;
  readonly fields: ReadonlyMap<string, QuantityNode>;
  /** The schema's `properties`: a declared key is never a map entry. */
  readonly declared: Readonly<Record<string, Schema>> | undefined;
  readonly extra: QuantityNode | undefined;
  readonly items: QuantityNode | undefined;
}

const nodeOf = schemaNodes<QuantityNode>({
  facts: (schema, fields) => ({
    quantity: isQuantitySchema(schema),
    fields,
    declared: schema.properties,
    extra: undefined,
    items: undefined,
  }),
  linkItems: (node, child) => (node.items = child),
  linkValues: (node, child) => (node.extra = child),
  follows: holdsQuantities,
});

function walk(node: QuantityNode, value: unknown): void {
  if (Array.isArray(value)) {
    const items = node.items;
    if (!items) return;
    for (let i = 0; i < value.length; i++) {
      if (items.quantity) value[i] = canonicalQuantity(value[i]);
      else walk(items, value[i]);
    }
    return;
  }
  if (!isPlainObject(value)) return;
  // In the object's order (the first malformed quantity met is the one reported); a key the
  // schema declares, or an entry of a map, that can hold no quantity is passed over.
  for (const key in value) {
    let sub = node.fields.get(key);
    if (sub === undefined) {
      if (node.extra === undefined || node.declared?.[key] !== undefined) continue;
      sub = node.extra;
    }
    const child = value[key];
    if (sub.quantity) value[key] = canonicalQuantity(child);
    else if (child !== null && typeof child === 'object') walk(sub, child);
  }
}

/**
 * Rewrites, in place, every quantity below `value` (a value of `schema`, an object or a list) in
 * canonical form. Throws `QuantityError` at the first malformed one, in the value's order.
 */
export function canonicalizeQuantitiesIn(schema: Schema, value: unknown): void {
  walk(nodeOf(schema), value);
}

/**
 * What kube's typed decoding does to `resource.Quantity` fields, done on JSON objects by their
 * schema: numbers are accepted, every quantity is written back in its canonical form (`0.5` →
 * `500m`, `1024Mi` → `1Gi`), and a malformed one fails the request like a decoding error (400).
 * Also the schema built-in kinds validate with: kube checks them with Go validation, not with
 * their published `required` and `enum` lists.
 */
import { Quantity, QuantityError } from '../../util/go-quantity.js';
import { apiErrors } from '../meta/status.js';
import type { ApiObject } from '../object.js';
import { isPlainObject } from '../schema/json-value.js';
import type { Schema } from '../schema/schema.js';
import { schemaNodes } from '../schema/schema-nodes.js';
import { reachTest } from '../schema/schema-reach.js';

function isQuantitySchema(schema: Schema): boolean {
  return schema['x-orch-protobuf-message'] === 'Quantity';
}

/** Whether a value of a schema may hold a quantity: the walk skips subtrees that cannot. */
const holdsQuantities = reachTest(isQuantitySchema);

/** The canonical form of a quantity value; throws `QuantityError` for a malformed one. */
function canonical(value: unknown): unknown {
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
      if (items.quantity) value[i] = canonical(value[i]);
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
    if (sub.quantity) value[key] = canonical(child);
    else if (child !== null && typeof child === 'object') walk(sub, child);
  }
}

/**
 * Rewrites every quantity of `obj` (found through `schema`) in canonical form. Mutates.
 *
 * @throws StatusError 400 `<Kind> in version "<v>" cannot be handled as a <Kind>: quantities must
 *   match the regular expression ...` for a malformed quantity.
 */
export function canonicalizeQuantities(schema: Schema, obj: ApiObject): void {
  try {
    walk(nodeOf(schema), obj);
  } catch (e) {
    if (!(e instanceof QuantityError)) throw e;
    const version = obj.apiVersion.includes('/')
      ? obj.apiVersion.slice(obj.apiVersion.indexOf('/') + 1)
      : obj.apiVersion;
    // kube's transformDecodeError wording.
    throw apiErrors.badRequest(
      `${obj.kind} in version ${JSON.stringify(version)} cannot be handled as a ${obj.kind}: ${e.message}`,
    );
  }
}

/**
 * Rewrites every quantity of a value embedded in another kind (a workload's pod template) in
 * canonical form, found through `schema`. Mutates.
 *
 * @throws StatusError 400 `quantities must match the regular expression ...` for a malformed
 *   quantity (kube names the enclosing kind before it; the template does not know it).
 */
export function canonicalizeEmbeddedQuantities(schema: Schema, value: Record<string, unknown>): void {
  try {
    walk(nodeOf(schema), value);
  } catch (e) {
    if (!(e instanceof QuantityError)) throw e;
    throw apiErrors.badRequest(e.message);
  }
}

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
 * What the walk needs of an object schema, computed once per (immutable) schema: its properties
 * that are or may hold quantities, and its map-entry schema when that may.
 */
interface QuantityFacts {
  readonly props: ReadonlyMap<string, Schema>;
  readonly extra: Schema | undefined;
}

const factsMemo = new WeakMap<Schema, QuantityFacts>();

function factsOf(schema: Schema): QuantityFacts {
  let facts = factsMemo.get(schema);
  if (facts === undefined) {
    const props = new Map<string, Schema>();
    for (const [name, sub] of Object.entries(schema.properties ?? {})) {
      if (isQuantitySchema(sub) || holdsQuantities(sub)) props.set(name, sub);
    }
    const extra = typeof schema.additionalProperties === 'object' ? schema.additionalProperties : undefined;
    facts = { props, extra: extra && (isQuantitySchema(extra) || holdsQuantities(extra)) ? extra : undefined };
    factsMemo.set(schema, facts);
  }
  return facts;
}

function walk(schema: Schema, value: unknown): void {
  if (Array.isArray(value)) {
    const items = schema.items;
    if (!items) return;
    for (let i = 0; i < value.length; i++) {
      if (isQuantitySchema(items)) value[i] = canonical(value[i]);
      else if (holdsQuantities(items)) walk(items, value[i]);
    }
    return;
  }
  if (!isPlainObject(value)) return;
  const facts = factsOf(schema);
  // In the object's order (the first malformed quantity met is the one reported); a key the
  // schema declares, or an entry of a map, that can hold no quantity is passed over.
  for (const key of Object.keys(value)) {
    let sub = facts.props.get(key);
    if (sub === undefined) {
      if (facts.extra === undefined || schema.properties?.[key] !== undefined) continue;
      sub = facts.extra;
    }
    const child = value[key];
    if (isQuantitySchema(sub)) value[key] = canonical(child);
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
    walk(schema, obj);
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
    walk(schema, value);
  } catch (e) {
    if (!(e instanceof QuantityError)) throw e;
    throw apiErrors.badRequest(e.message);
  }
}

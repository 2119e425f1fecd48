import { cloneJson, isPlainObject } from './json-value.js';
import type { Schema } from './schema.js';
import { schemaNodes } from './schema-nodes.js';
import { reachTest } from './schema-reach.js';
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
  defaultValue(defaultsNodeOf(schema), obj);
}

function defaultValue(node: DefaultsNode, value: unknown): void {
  if (Array.isArray(value)) {
    const items = node.items;
    if (items === undefined) return;
    for (let i = 0; i < value.length; i++) {
      const item = value[i];
      if (item !== null && typeof item === 'object') defaultValue(items, item);
    }
    return;
  }
  if (!isPlainObject(value)) return;
  const defaulted = node.defaulted;
  for (let i = 0; i < defaulted.length; i++) {
    const field = defaulted[i]!;
    const current = value[field.name];
    if (current === undefined || (current === null && !field.node.nullable)) {
      value[field.name] = copyOfDefault(field.node.default);
    }
  }
  const fields = node.fields;
  const extra = node.extra;
  if (fields === undefined && extra === undefined) return;
  for (const key in value) {
    const sub = fields?.get(key) ?? extra;
    if (sub !== undefined) defaultEntry(value, key, sub);
  }
}

function defaultEntry(obj: Record<string, unknown>, key: string, node: DefaultsNode): void {
  const current = obj[key];
  if (current === undefined || (current === null && !node.nullable)) {
    if (node.default !== undefined) obj[key] = copyOfDefault(node.default);
    else if (current === null) delete obj[key];
  }
  const value = obj[key];
  if (node.descends && value !== null && typeof value === 'object') defaultValue(node, value);
}

/**
 * A deep copy of a default, as a JSON round trip makes it: the default stays the schema's. Most
 * defaults are scalars or `{}`, which need no round trip.
 */
export function copyOfDefault(value: unknown): unknown {
  if (typeof value === 'string' || typeof value === 'boolean') return value;
  // The round trip writes -0 as 0, non-finite numbers as null, and reads a whole number beyond
  // the safe range back as a `bigint`.
  if (typeof value === 'number' && isOwnRoundTrip(value)) return value;
  if (isPlainObject(value) && Object.getPrototypeOf(value) === Object.prototype && Object.keys(value).length === 0) {
    return {};
  }
  return cloneJson(value);
}

function isOwnRoundTrip(n: number): boolean {
  return Number.isInteger(n) ? Number.isSafeInteger(n) && !Object.is(n, -0) : Number.isFinite(n);
}

/** What defaulting needs of a schema node (see `schemaNodes`). */
interface DefaultsNode {
  readonly nullable: boolean;
  readonly default: unknown;
  /** The properties that carry a `default`, in the schema's order. */
  readonly defaulted: readonly { readonly name: string; readonly node: DefaultsNode }[];
  /** The nodes of the declared properties; `undefined` when the schema declares none. */
  readonly fields: ReadonlyMap<string, DefaultsNode> | undefined;
  /** The node of map values (`additionalProperties` as a schema). */
  readonly extra: DefaultsNode | undefined;
  readonly items: DefaultsNode | undefined;
  /** Whether anything inside a value can change (else the walk does not go down). */
  readonly descends: boolean;
}

const defaultsNodeOf = schemaNodes<DefaultsNode>({
  facts: (schema, fields) => {
    const additional = schema.additionalProperties;
    return {
      nullable: !!schema.nullable,
      default: schema.default,
      defaulted: [],
      fields: schema.properties ? fields : undefined,
      extra: undefined,
      items: undefined,
      descends:
        schema.properties !== undefined ||
        schema.items !== undefined ||
        (!!additional && typeof additional === 'object'),
    };
  },
  linkProperty: (node, name, child, sub) => {
    if (sub.default !== undefined) node.defaulted = [...node.defaulted, { name, node: child }];
  },
  linkValues: (node, child) => (node.extra = child),
  linkItems: (node, child) => (node.items = child),
});

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
  const facts = factsOf(schema);
  if (facts.extraHoldsTimestamps) {
    const props = schema.properties;
    for (const key of Object.keys(obj)) {
      const sub = props !== undefined && Object.hasOwn(props, key) ? props[key] : facts.extra;
      if (sub !== undefined && obj[key] !== undefined) obj[key] = canonicalValue(sub, obj[key]);
    }
    return;
  }
  // Only the properties that may hold a timestamp can change: the others are not visited.
  for (const [name, sub] of facts.timestamped) {
    if (Object.hasOwn(obj, name) && obj[name] !== undefined) obj[name] = canonicalValue(sub, obj[name]);
  }
}

/** The canonical forms' shapes: a value of that shape is its own canonical form, or does not parse. */
const CANONICAL_SHAPE = {
  second: /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/,
  microsecond: /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/,
} as const;

function canonicalValue(schema: Schema, value: unknown): unknown {
  const precision = schema['x-orch-time-precision'];
  if (precision && typeof value === 'string') {
    // Either way the value stays: most timestamps written are already canonical.
    if (CANONICAL_SHAPE[precision].test(value)) return value;
    return canonicalTimestamp(value, precision) ?? value;
  }
  if (holdsTimestamps(schema)) canonicalizeTimestamps(schema, value);
  return value;
}

/**
 * Derived facts of a schema, computed once per schema object: the properties that carry a
 * `default` (the walks above run per request and visit only the keys an object holds, plus
 * these) and whether any timestamp lies below it. Schemas are not changed after they are built
 * (built-in ones are frozen), so the facts stay true.
 */
interface SchemaFacts {
  readonly extra: Schema | undefined;
  /** The properties whose values may hold a timestamp. */
  readonly timestamped: readonly (readonly [string, Schema])[];
  /** Whether map entries (`extra`) may hold a timestamp. */
  readonly extraHoldsTimestamps: boolean;
}

const factsMemo = new WeakMap<Schema, SchemaFacts>();

function factsOf(schema: Schema): SchemaFacts {
  let facts = factsMemo.get(schema);
  if (facts === undefined) {
    const additional = schema.additionalProperties;
    const extra = additional && typeof additional === 'object' ? additional : undefined;
    const props = Object.entries(schema.properties ?? {});
    facts = {
      extra,
      timestamped: props.filter(([, p]) => holdsTimestamps(p)),
      extraHoldsTimestamps: extra !== undefined && holdsTimestamps(extra),
    };
    factsMemo.set(schema, facts);
  }
  return facts;
}

/** Whether a value of `schema` may hold a timestamp. */
const holdsTimestamps = reachTest((schema) => schema['x-orch-time-precision'] !== undefined);

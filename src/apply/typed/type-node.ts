import type { JsonValue } from '../../apis/object.js';
import type { Schema } from '../../apis/schema/schema.js';
import { compareGoStrings } from '../../util/go-strings.js';
import { type FieldElement, fieldElement, type KeyFieldOrder, keyFieldOrder } from '../fieldpath/path-element.js';

/**
 * The merge-relevant shape of a schema node, as kube's OpenAPI-to-structured-merge-diff
 * conversion sees it:
 * - `scalar`: a leaf;
 * - `map`: a struct (`fields`), a map (`element`), or both (struct with
 *   `x-orch-preserve-unknown-fields`); `atomic` when `x-orch-map-type: atomic`;
 * - `list`: `atomic`, a set (no `keys`) or a list map (`keys`, with key defaults);
 * - `deduced`: no schema (unstructured): maps are granular, lists atomic, scalars leaves.
 */
export type TypeNode = ScalarType | MapType | ListType | DeducedType;

export interface ScalarType {
  readonly kind: 'scalar';
  readonly scalar: 'string' | 'numeric' | 'boolean' | 'untyped';
}

export interface MapType {
  readonly kind: 'map';
  readonly atomic: boolean;
  /** Declared struct fields. */
  readonly fields: ReadonlyMap<string, TypeNode> | undefined;
  /** Type of any other key; without it, other keys are not declared in the schema. */
  readonly element: TypeNode | undefined;
  /** Each declared field with what per-request walks need of it, built once. */
  readonly declared?: ReadonlyMap<string, DeclaredField>;
}

/** A declared struct field of a `MapType`. */
export interface DeclaredField {
  readonly name: string;
  readonly type: TypeNode;
  /**
   * The field's position in Go's byte order of its struct's field names, which is the order of
   * their `fieldsV1` keys: sorting a struct's fields by it needs no string comparison.
   */
  readonly rank: number;
  /**
   * The field's path element: walks that run per request take it instead of making their own,
   * and its `id` is then one string, a `fieldsV1` key V8 has already internalized.
   */
  readonly element: FieldElement;
}

export interface ListType {
  readonly kind: 'list';
  readonly atomic: boolean;
  /** Key fields of a list map, in schema order; absent for a set or an atomic list. */
  readonly keys: readonly string[] | undefined;
  /** Schema defaults of key fields, used when an item omits a key. */
  readonly keyDefaults: ReadonlyMap<string, JsonValue>;
  /** The key fields in the order of the items' `k:` ids, prepared once; absent without `keys`. */
  readonly keyOrder?: KeyFieldOrder;
  readonly element: TypeNode;
}

export interface DeducedType {
  readonly kind: 'deduced';
}

/** Every member any kind of node has (see {@link layout}). */
interface NodeLayout {
  kind: TypeNode['kind'];
  scalar?: ScalarType['scalar'];
  atomic?: boolean;
  fields?: ReadonlyMap<string, TypeNode>;
  element?: TypeNode;
  declared?: ReadonlyMap<string, DeclaredField>;
  keys?: readonly string[];
  keyDefaults?: ReadonlyMap<string, JsonValue>;
  keyOrder?: KeyFieldOrder;
}

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

/**
 * A node of any kind with every member of every kind, in one order, the ones its kind lacks
 * undefined: per-request walks read `kind`, `atomic`, `declared` and `element` of nodes of all
 * kinds, and a property read that meets one object layout is a direct load where one that meets
 * five (the kinds, with and without declared fields, frozen or not) is a hash lookup. Not frozen
 * for the same reason: a frozen object has a layout of its own.
 */
function layout<T extends TypeNode>(node: NodeLayout): Mutable<T> {
  return {
    kind: node.kind,
    scalar: node.scalar,
    atomic: node.atomic ?? false,
    fields: node.fields,
    element: node.element,
    declared: node.declared,
    keys: node.keys,
    keyDefaults: node.keyDefaults,
    keyOrder: node.keyOrder,
  } as unknown as Mutable<T>;
}

export const DEDUCED: DeducedType = layout<DeducedType>({ kind: 'deduced' });
const UNTYPED: ScalarType = layout<ScalarType>({ kind: 'scalar', scalar: 'untyped' });
export const DEDUCED_MAP: MapType = layout<MapType>({ kind: 'map', atomic: false, element: DEDUCED });
const DEDUCED_LIST: ListType = layout<ListType>({
  kind: 'list',
  atomic: true,
  keyDefaults: new Map(),
  element: DEDUCED,
});

/** The concrete type a value takes at node `t`: deduced nodes follow the value's own shape. */
export function resolveType(t: TypeNode, value: unknown): ScalarType | MapType | ListType {
  if (t.kind !== 'deduced') return t;
  if (Array.isArray(value)) return DEDUCED_LIST;
  if (value !== null && typeof value === 'object') return DEDUCED_MAP;
  return UNTYPED;
}

/**
 * The concrete types two values take at node `t` when they are compared or merged. As in
 * structured-merge-diff, a deduced `null` facing a map is an empty map (null is a valid map
 * there), so `{a: null}` against `{a: {x: 1}}` differs below `.a`, not at `.a`; otherwise each
 * value resolves on its own (`undefined` stands for an absent value).
 */
export function resolvePair(
  t: TypeNode,
  lhs: unknown,
  rhs: unknown,
): [ScalarType | MapType | ListType, ScalarType | MapType | ListType] {
  if (t.kind === 'deduced' && (lhs === null || rhs === null)) {
    const other = lhs === null ? rhs : lhs;
    if (other !== null && typeof other === 'object' && !Array.isArray(other)) return [DEDUCED_MAP, DEDUCED_MAP];
  }
  return [resolveType(t, lhs), resolveType(t, rhs)];
}

/** The type of map key `key` under `t`, or undefined when the schema does not declare it. */
export function fieldType(t: MapType, key: string): TypeNode | undefined {
  return t.fields?.get(key) ?? t.element;
}

/** Whether `key` is a declared struct field of `t` (not a key of the map part). */
export function isStructField(t: MapType, key: string): boolean {
  return t.fields?.has(key) === true;
}

/**
 * Compiles schemas into `TypeNode`s, once per schema object (built-in schemas share their
 * sub-schemas, so the cache keeps the work proportional to distinct nodes).
 */
export class TypeCompiler {
  private readonly cache = new WeakMap<Schema, TypeNode>();

  compile(schema: Schema | undefined): TypeNode {
    if (!schema) return DEDUCED;
    const hit = this.cache.get(schema);
    if (hit) return hit;
    const node = this.build(schema);
    this.cache.set(schema, node);
    return node;
  }

  private build(s: Schema): TypeNode {
    if (s['x-orch-int-or-string']) return UNTYPED;
    const type = s.type ?? (s.properties || s.additionalProperties ? 'object' : s.items ? 'array' : undefined);
    switch (type) {
      case 'string':
        return layout<ScalarType>({ kind: 'scalar', scalar: 'string' });
      case 'integer':
      case 'number':
        return layout<ScalarType>({ kind: 'scalar', scalar: 'numeric' });
      case 'boolean':
        return layout<ScalarType>({ kind: 'scalar', scalar: 'boolean' });
      case 'array':
        return this.buildList(s);
      case 'object':
        return this.buildMap(s);
      default:
        return DEDUCED;
    }
  }

  // Maps and lists are cached before their members are compiled: a schema may reach itself
  // (apiextensions' JSONSchemaProps), and its members then refer to the node being built.
  private buildMap(s: Schema): MapType {
    const node = layout<MapType>({ kind: 'map', atomic: s['x-orch-map-type'] === 'atomic' });
    this.cache.set(s, node);
    if (s.properties) {
      const fields = new Map<string, TypeNode>();
      for (const [name, sub] of Object.entries(s.properties)) fields.set(name, this.compile(sub));
      node.fields = fields;
      const ranked = [...fields.keys()].sort(compareGoStrings);
      node.declared = new Map(
        ranked.map((name, rank) => [name, { name, type: fields.get(name)!, rank, element: fieldElement(name) }]),
      );
    }
    if (typeof s.additionalProperties === 'object') node.element = this.compile(s.additionalProperties);
    else if (s.additionalProperties === true || s['x-orch-preserve-unknown-fields'] || !node.fields)
      node.element = DEDUCED;
    return node;
  }

  private buildList(s: Schema): ListType {
    const { atomic, keys } = listRelationship(s);
    const keyDefaults = new Map<string, JsonValue>();
    for (const key of keys ?? []) {
      const d = s.items?.properties?.[key]?.default;
      if (d !== undefined) keyDefaults.set(key, d as JsonValue);
    }
    const node = layout<ListType>({
      kind: 'list',
      atomic,
      keys,
      keyDefaults,
      keyOrder: keys ? keyFieldOrder(keys) : undefined,
      element: DEDUCED,
    });
    this.cache.set(s, node);
    node.element = this.compile(s.items);
    return node;
  }
}

/**
 * kube's reading of list markers: `x-orch-list-type` first; without it, patch strategy `merge`
 * makes a list map keyed by the merge key (a set without one); anything else is atomic.
 */
function listRelationship(s: Schema): { atomic: boolean; keys: string[] | undefined } {
  switch (s['x-orch-list-type']) {
    case 'atomic':
      return { atomic: true, keys: undefined };
    case 'set':
      return { atomic: false, keys: undefined };
    case 'map': {
      const keys = s['x-orch-list-map-keys'] ?? (s['x-orch-patch-merge-key'] ? [s['x-orch-patch-merge-key']] : []);
      return keys.length > 0 ? { atomic: false, keys: [...keys] } : { atomic: true, keys: undefined };
    }
  }
  const strategy = s['x-orch-patch-strategy'];
  if (strategy === 'merge' || strategy === 'merge,retainKeys') {
    const key = s['x-orch-patch-merge-key'];
    return key ? { atomic: false, keys: [key] } : { atomic: false, keys: undefined };
  }
  return { atomic: true, keys: undefined };
}

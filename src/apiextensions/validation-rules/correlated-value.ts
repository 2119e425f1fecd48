import { isPlainObject, jsonEqual } from '../../apis/schema/json-value.js';
import type { Schema } from '../../apis/schema/schema.js';

/**
 * New and old values of an update, paired node by node as kube-apiserver pairs them for
 * transition rules and ratcheting: object properties and map entries by key, items of
 * `x-orch-list-type: map` lists by their key fields; items of other lists have no old value.
 */

/** Looks up the old item of a map list that has the same keys as a new one. */
export interface OldItems {
  get(item: unknown): unknown;
}

const NO_OLD_ITEMS: OldItems = { get: () => undefined };

/** A map-list key part: only scalars key an item. */
function keyPart(v: unknown): string | undefined {
  switch (typeof v) {
    case 'string':
      return `s${v}`;
    case 'number':
      return `n${v}`;
    case 'boolean':
      return `b${v}`;
    default:
      return undefined;
  }
}

function compositeKey(keys: readonly string[], item: unknown): string | undefined {
  if (!isPlainObject(item)) return undefined;
  let key = '';
  for (const k of keys) {
    const part = Object.hasOwn(item, k) ? keyPart(item[k]) : undefined;
    if (part === undefined) return undefined;
    key += `${part}\u0000`;
  }
  return key;
}

/**
 * The old items of a list of `schema`, by key (kube's `MakeMapList`): only map lists with keys
 * correlate; an item lacking a key, or keyed by a non-scalar, matches nothing; of old items
 * with equal keys the first wins.
 */
export function oldItemsOf(schema: Schema, old: unknown): OldItems {
  const keys = schema['x-orch-list-map-keys'] ?? [];
  if (schema.type !== 'array' || schema['x-orch-list-type'] !== 'map' || keys.length === 0) return NO_OLD_ITEMS;
  if (!Array.isArray(old) || old.length === 0) return NO_OLD_ITEMS;
  let byKey: Map<string, unknown> | undefined;
  return {
    get(item) {
      const key = compositeKey(keys, item);
      if (key === undefined) return undefined;
      if (byKey === undefined) {
        byKey = new Map();
        for (const o of old) {
          const k = compositeKey(keys, o);
          if (k !== undefined && !byKey.has(k)) byKey.set(k, o);
        }
      }
      return byKey.get(key);
    },
  };
}

function schemaOf(v: Schema | boolean | undefined): Schema | undefined {
  return typeof v === 'object' && v !== null ? v : undefined;
}

/**
 * A node of an update where both the new and the old object have a value (kube's
 * `CorrelatedObject`), with whether the two are equal, computed once. Built lazily from the
 * root as validation walks the new object.
 */
export class CorrelatedValue {
  #equal: boolean | undefined;
  #children: Map<string | number, CorrelatedValue | undefined> | undefined;
  #oldItems: OldItems | undefined;

  constructor(
    readonly value: unknown,
    readonly old: unknown,
    readonly schema: Schema,
  ) {}

  #child(id: string | number, make: () => CorrelatedValue | undefined): CorrelatedValue | undefined {
    this.#children ??= new Map();
    if (this.#children.has(id)) return this.#children.get(id);
    const child = make();
    this.#children.set(id, child);
    return child;
  }

  /** The pair at property or map key `field`, when both values have it and the schema types it. */
  key(field: string): CorrelatedValue | undefined {
    return this.#child(field, () => {
      const { value, old } = this;
      if (!isPlainObject(value) || !isPlainObject(old)) return undefined;
      if (!Object.hasOwn(value, field) || !Object.hasOwn(old, field)) return undefined;
      const props = this.schema.properties;
      const schema =
        props !== undefined && Object.hasOwn(props, field) ? props[field] : schemaOf(this.schema.additionalProperties);
      return schema === undefined ? undefined : new CorrelatedValue(value[field], old[field], schema);
    });
  }

  /** The pair at item `index` of the new list, when the list is a map list and the old one has an item with its keys. */
  index(index: number): CorrelatedValue | undefined {
    return this.#child(index, () => {
      const { value } = this;
      if (!Array.isArray(value) || index >= value.length || !Array.isArray(this.old)) return undefined;
      this.#oldItems ??= oldItemsOf(this.schema, this.old);
      const old = this.#oldItems.get(value[index]);
      const items = this.schema.items;
      return old === undefined || old === null || items === undefined
        ? undefined
        : new CorrelatedValue(value[index], old, items);
    });
  }

  /**
   * Whether the new value equals the old one (kube's `CachedDeepEqual`): lists and objects are
   * compared through their correlated children, so an object with a property the schema does
   * not type, or a map list whose items do not all correlate, never counts as equal; other
   * lists compare as JSON.
   */
  equal(): boolean {
    if (this.#equal === undefined) this.#equal = this.#compare();
    return this.#equal;
  }

  #compare(): boolean {
    const { value, old } = this;
    if ((value ?? null) === null || (old ?? null) === null) return (value ?? null) === (old ?? null);
    if (Array.isArray(value) !== Array.isArray(old) || isPlainObject(value) !== isPlainObject(old)) return false;
    if (Array.isArray(value) && Array.isArray(old)) {
      if (value.length !== old.length) return false;
      const mapList = this.schema['x-orch-list-type'] === 'map';
      for (let i = 0; i < value.length; i++) {
        const child = this.index(i);
        if (child === undefined) return mapList ? false : jsonEqual(old, value);
        if (!child.equal()) return false;
      }
      return true;
    }
    if (isPlainObject(value) && isPlainObject(old)) {
      const keys = Object.keys(value);
      if (keys.length !== Object.keys(old).length) return false;
      for (const k of keys) {
        const child = this.key(k);
        if (child === undefined || !child.equal()) return false;
      }
      return true;
    }
    return jsonEqual(old, value);
  }
}

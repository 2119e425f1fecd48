import type { Schema } from '../../apis/schema/schema.js';

/**
 * The figures kube-apiserver multiplies a rule's estimated cost by: how many times the rule's
 * node can occur in one object. Below bounded lists and maps it is the product of their
 * `maxItems`/`maxProperties`; below an unbounded one, the number of the node's smallest JSON
 * serializations that fit in the largest request (3 MiB).
 */

/** kube's `MaxRequestSizeBytes`. */
const MAX_REQUEST_BYTES = 3 * 1024 * 1024;

function schemaOf(v: Schema | boolean | undefined): Schema | undefined {
  return typeof v === 'object' && v !== null ? v : undefined;
}

/**
 * The smallest JSON serialization of a value of `schema`, in bytes (kube's `MinSerializedSize`
 * of the schema's CEL type), or `undefined` when the schema is not exposed to CEL (no type, an
 * array without exposed items, a map whose values are not exposed). Objects count `{}` and each
 * required property without a default; the root of a resource gains no required property.
 */
export function minSerializedSize(schema: Schema): number | undefined {
  if (schema['x-orch-int-or-string']) return 1;
  switch (schema.type) {
    case 'array': {
      const items = schema.items;
      return items !== undefined && minSerializedSize(items) !== undefined ? 2 : undefined;
    }
    case 'object': {
      const values = schemaOf(schema.additionalProperties);
      if (values !== undefined) return minSerializedSize(values) !== undefined ? 2 : undefined;
      const required = new Set(schema.required ?? []);
      let size = 2;
      for (const [name, prop] of Object.entries(schema.properties ?? {})) {
        const min = minSerializedSize(prop);
        if (min !== undefined && required.has(name) && prop.default === undefined) size += name.length + min + 4;
      }
      return size;
    }
    case 'string':
      switch (schema.format) {
        case 'duration':
          return 3;
        case 'date':
          return 12;
        case 'date-time':
          return 21;
        default:
          return 2;
      }
    case 'boolean':
      return 4;
    case 'number':
    case 'integer':
      return 1;
    default:
      return undefined;
  }
}

/** kube's `maxCardinality`: occurrences of a node of that smallest size in one request. */
export function unboundedCardinality(minSize: number): number {
  return Math.floor(MAX_REQUEST_BYTES / (minSize + 1));
}

/**
 * How many children one value of `schema` has at most (kube's `extractMaxElements`): `maxItems`
 * of a list, `maxProperties` of a map, 1 for objects and scalars; `undefined` when unbounded.
 */
export function maxElements(schema: Schema): number | undefined {
  switch (schema.type) {
    case 'object':
      if (schema.additionalProperties !== undefined) {
        return schema.maxProperties === undefined ? undefined : Math.max(0, schema.maxProperties);
      }
      return 1;
    case 'array':
      return schema.maxItems === undefined ? undefined : Math.max(0, schema.maxItems);
    default:
      return 1;
  }
}

/** 2^64 − 1, where kube's unsigned costs saturate. */
export const MAX_COST = 2 ** 64 - 1;

/** `a × b`, capped at {@link MAX_COST} as kube's overflow guard does; 0 when `a` is 0. */
export function multiplyCost(a: number, b: number): number {
  if (a === 0) return 0;
  return Math.min(a * b, MAX_COST);
}

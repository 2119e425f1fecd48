import type { Environment } from '@marcbachmann/cel-js';
import { canonicalJson, isPlainObject, jsonEqual } from '../apis/schema/json-value.js';
import type { Schema } from '../apis/schema/schema.js';
import { escapeCelName } from './escaping.js';
import { toCelDynamic } from './json-values.js';
import { type ListSemantics, withListSemantics } from './list-semantics.js';
import { type SchemaField, SchemaObject, schemaJson, schemaObjectClass } from './schema-object.js';
import { type CelTypeBinding, INT_OR_STRING, invalidData, scalarBinding, scalarKey } from './schema-scalars.js';

/**
 * CEL types from structural schemas, as kube-apiserver derives them (`SchemaDeclType`):
 *
 * | schema | CEL type |
 * |---|---|
 * | object with properties | object type; only properties whose names are accessible (see escaping.ts) |
 * | object with `additionalProperties` (a schema) | `map<string, T>` |
 * | `x-orch-embedded-resource`, or the root of a resource | object type with `apiVersion`, `kind`, `metadata.name`, `metadata.generateName` added |
 * | `x-orch-preserve-unknown-fields` | its declared properties only; unknown fields are not accessible (without a type: not accessible at all) |
 * | `x-orch-int-or-string` | `dyn` (an `int` or a `string`) |
 * | array | `list<T>`; `x-orch-list-type` `set`/`map` compare ignoring order and merge on `+` |
 * | boolean, number, integer | `bool`, `double`, `int` (64-bit) |
 * | string; `format` byte, date / date-time, duration | `string`; `bytes`, `timestamp`, `duration` |
 * | `null` (a nullable property holding null) | absent: `has()` is false |
 *
 * A schema (or part) that maps to no type is not exposed: an array without items, an object whose
 * `additionalProperties` schema is not exposed, a property without a type.
 */

/**
 * A schema node that is `dyn` in CEL and holds any JSON (as a `json` variable does), for the
 * fields kube declares dynamic in its own types (`request.options`). Recognized by identity;
 * never part of a stored schema.
 */
export const DYN_JSON_SCHEMA: Schema = Object.freeze({});

const DYN_JSON: CelTypeBinding = { celType: 'dyn', convert: toCelDynamic, equal: jsonEqual };

/** Where the type of a variable comes from. */
export interface SchemaTypeOptions {
  /** Name of the root object type; nested object types are named by path below it (`T.spec`). */
  readonly typeName: string;
  /** The root of a resource: `apiVersion`, `kind`, `metadata.name` and `metadata.generateName` are always there. */
  readonly isResourceRoot?: boolean;
  /** Receives the fields of each object type declared: type name → CEL field names. */
  readonly objectFields?: Map<string, ReadonlySet<string>>;
  /** Receives the fields of each object type declared: type name → CEL field name → field. */
  readonly objectTypes?: Map<string, ReadonlyMap<string, SchemaField>>;
}

/**
 * Registers the object types of `schema` on `env` and returns the binding of its root, or
 * `undefined` when the schema is not exposed to CEL. Each object type gets an `==` overload that
 * compares as kube does (set and map lists ignoring order).
 */
export function declareSchemaType(
  env: Environment,
  schema: Schema,
  options: SchemaTypeOptions,
): CelTypeBinding | undefined {
  if (!/^[A-Za-z_][\w.]*$/.test(options.typeName)) throw new RangeError(`invalid CEL type name ${options.typeName}`);
  const builder = new SchemaTypeBuilder(env, options.objectFields ?? new Map(), options.objectTypes ?? new Map());
  return builder.build(schema, options.typeName, options.isResourceRoot ?? false);
}

/** Walks one schema, registering its object types on the environment as it goes. */
class SchemaTypeBuilder {
  /** Named types (`x-orch-type-name`) already registered, by name. */
  readonly #named = new Map<string, { schema: Schema; binding: CelTypeBinding }>();

  constructor(
    private readonly env: Environment,
    private readonly objectFields: Map<string, ReadonlySet<string>>,
    private readonly objectTypes: Map<string, ReadonlyMap<string, SchemaField>>,
  ) {}

  build(schema: Schema, path: string, resourceRoot: boolean): CelTypeBinding | undefined {
    if (schema === DYN_JSON_SCHEMA) return DYN_JSON;
    if (schema['x-orch-int-or-string']) return INT_OR_STRING;
    const s = resourceRoot ? withTypeAndObjectMeta(schema) : schema;
    switch (s.type) {
      case 'array':
        return this.#list(s, path);
      case 'object':
        if (isSchema(s.additionalProperties)) return this.#map(s.additionalProperties, path);
        return this.#namedObject(s, path, s === schema);
      default:
        return scalarBinding(s.type, s.format);
    }
  }

  #list(s: Schema, path: string): CelTypeBinding | undefined {
    if (!s.items) return undefined;
    const items = this.build(s.items, `${path}.items`, s.items['x-orch-embedded-resource'] === true);
    if (!items) return undefined;
    const listType = s['x-orch-list-type'];
    const keys = s['x-orch-list-map-keys'] ?? [];
    const semantics =
      listType === 'set' && SCALAR_TYPES.has(items.celType)
        ? setSemantics()
        : listType === 'map' && keys.length > 0
          ? mapListSemantics(keys, items)
          : undefined;
    const equal = semantics ? unorderedEqual(semantics.listType, keys, items) : orderedEqual(items);
    return {
      celType: `list<${items.celType}>`,
      convert: (v) => {
        if (!Array.isArray(v)) throw invalidData('array', v);
        const out = v.map((e) => (e === null || e === undefined ? null : items.convert(e)));
        return semantics ? withListSemantics(out, semantics) : out;
      },
      equal,
    };
  }

  #map(values: Schema, path: string): CelTypeBinding | undefined {
    const v = this.build(values, `${path}.additionalProperties`, values['x-orch-embedded-resource'] === true);
    if (!v) return undefined;
    return {
      celType: `map<string, ${v.celType}>`,
      convert: (obj) => {
        if (!isPlainObject(obj)) throw invalidData('object', obj);
        const out = new Map<string, unknown>();
        for (const key of Object.keys(obj)) {
          const raw = obj[key];
          if (raw !== null && raw !== undefined) out.set(key, v.convert(raw));
        }
        return out;
      },
      equal: (a, b) => objectsEqual(a, b, () => v),
    };
  }

  /** An object type, registered once per type name when the schema names its type. */
  #namedObject(s: Schema, path: string, unchanged: boolean): CelTypeBinding {
    const name = s['x-orch-type-name'];
    if (!unchanged || name === undefined || !/^[A-Za-z_][\w.]*$/.test(name)) return this.#object(s, path);
    const known = this.#named.get(name);
    if (known?.schema === s) return known.binding;
    if (known) return this.#object(s, path);
    const binding = this.#object(s, name);
    this.#named.set(name, { schema: s, binding });
    return binding;
  }

  #object(s: Schema, name: string): CelTypeBinding {
    const fields = new Map<string, SchemaField>();
    const celFields: Record<string, string> = {};
    const byJsonName = new Map<string, CelTypeBinding>();
    const raw = s['x-orch-cel-field-names'] === 'raw';
    for (const [prop, propSchema] of Object.entries(s.properties ?? {})) {
      const escaped = raw ? prop : escapeCelName(prop);
      // Inaccessible properties still take part in equality, as JSON.
      if (escaped === undefined) continue;
      const b = this.build(propSchema, `${name}.${escaped}`, propSchema['x-orch-embedded-resource'] === true);
      if (!b) continue;
      byJsonName.set(prop, b);
      fields.set(escaped, { jsonName: prop, convert: b.convert, keep: !CHEAP_TYPES.has(b.celType) });
      celFields[escaped] = b.celType;
    }
    const ObjectClass = schemaObjectClass(fields);
    const binding: CelTypeBinding = {
      celType: name,
      convert: (v) => {
        if (!isPlainObject(v)) throw invalidData('object', v);
        return new ObjectClass(v);
      },
      equal: (a, b) => objectsEqual(a, b, (key) => byJsonName.get(key)),
    };
    this.env.registerType(name, { ctor: ObjectClass, fields: celFields });
    this.objectFields.set(name, new Set(fields.keys()));
    this.objectTypes.set(name, fields);
    this.env.registerOperator(`${name} == ${name}`, (x: SchemaObject, y: SchemaObject) =>
      binding.equal(schemaJson(x), schemaJson(y)),
    );
    // Objects compare with null, as cel-go's object types do (`namespaceObject == null`).
    this.env.registerOperator(`${name} == null`, (x: unknown) => x === null);
    return binding;
  }
}

/** Element types a set may hold (kube allows sets of scalars only). */
const SCALAR_TYPES: ReadonlySet<string> = new Set([
  'bool',
  'int',
  'double',
  'string',
  'bytes',
  'dyn',
  'google.protobuf.Timestamp',
  'google.protobuf.Duration',
]);

/** Types converted again on each read rather than kept: a conversion cheaper than keeping it. */
const CHEAP_TYPES: ReadonlySet<string> = new Set(['bool', 'int', 'double', 'string', 'dyn']);

function isSchema(v: Schema | boolean | undefined): v is Schema {
  return typeof v === 'object' && v !== null;
}

/**
 * The schema of a resource root (or embedded resource) with `kind`, `apiVersion` and `metadata`
 * (`name`, `generateName`) present; when any is missing or not a string, `metadata` is replaced
 * by one with just those two, as kube-apiserver does.
 */
function withTypeAndObjectMeta(s: Schema): Schema {
  const p = s.properties;
  const meta = p?.metadata;
  if (
    p?.kind?.type === 'string' &&
    p.apiVersion?.type === 'string' &&
    meta?.type === 'object' &&
    meta.properties?.name?.type === 'string' &&
    meta.properties.generateName?.type === 'string'
  ) {
    return s;
  }
  const str: Schema = { type: 'string' };
  return {
    ...s,
    type: 'object',
    properties: {
      ...p,
      kind: str,
      apiVersion: str,
      metadata: { type: 'object', properties: { name: str, generateName: str } },
    },
  };
}

/** Equality of two values that may be `null` (absent elements compare equal only to each other). */
function nullableEqual(binding: CelTypeBinding, a: unknown, b: unknown): boolean {
  if (a === null || a === undefined || b === null || b === undefined) return (a ?? null) === (b ?? null);
  return binding.equal(a, b);
}

function objectsEqual(a: unknown, b: unknown, bindingOf: (key: string) => CelTypeBinding | undefined): boolean {
  if (!isPlainObject(a) || !isPlainObject(b)) return false;
  const keys = Object.keys(a).filter((k) => a[k] !== undefined);
  if (keys.length !== Object.keys(b).filter((k) => b[k] !== undefined).length) return false;
  return keys.every((k) => {
    if (!Object.hasOwn(b, k)) return false;
    const binding = bindingOf(k);
    return binding ? nullableEqual(binding, a[k], b[k]) : jsonEqual(a[k], b[k]);
  });
}

function orderedEqual(items: CelTypeBinding): (a: unknown, b: unknown) => boolean {
  return (a, b) =>
    Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((e, i) => nullableEqual(items, e, b[i]));
}

/** Key of a map-list element (the JSON values of its key fields), or `undefined` for a non-object. */
function jsonListKey(keys: readonly string[], element: unknown): string | undefined {
  if (!isPlainObject(element)) return undefined;
  return canonicalJson(keys.map((k) => (Object.hasOwn(element, k) ? element[k] : null)));
}

function unorderedEqual(
  listType: 'set' | 'map',
  keys: readonly string[],
  items: CelTypeBinding,
): (a: unknown, b: unknown) => boolean {
  return (a, b) => {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
    if (listType === 'set') return b.every((y) => a.some((x) => nullableEqual(items, x, y)));
    const byKey = new Map(a.map((x) => [jsonListKey(keys, x), x]));
    return b.every((y) => {
      const k = jsonListKey(keys, y);
      return k !== undefined && byKey.has(k) && nullableEqual(items, byKey.get(k), y);
    });
  };
}

function setSemantics(): ListSemantics {
  return { listType: 'set', key: scalarKey, equal: () => true };
}

function mapListSemantics(keys: readonly string[], items: CelTypeBinding): ListSemantics {
  return {
    listType: 'map',
    key: (e) => (e instanceof SchemaObject ? jsonListKey(keys, schemaJson(e)) : undefined),
    equal: (a, b) =>
      a instanceof SchemaObject &&
      b instanceof SchemaObject &&
      a.constructor === b.constructor &&
      items.equal(schemaJson(a), schemaJson(b)),
  };
}

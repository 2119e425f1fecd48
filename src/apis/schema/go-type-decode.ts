import {
  goIntegerDecodeError,
  goUnmarshalError,
  holdsBoundedIntegers,
  integerDecodeErrorWithin,
  outOfRange,
  structName,
} from './go-integer-decode.js';
import { isPlainObject } from './json-value.js';
import type { Schema } from './schema.js';
import { schemaNodes } from './schema-nodes.js';

/**
 * What Go's decoder reports for a body of a compiled-in kind: the first value, in document
 * order, that {@link goTypeDecodeError} or `goIntegerDecodeError` would report (Go keeps the first
 * error it meets and reads on), in one walk of the body. `undefined` when every value fits.
 */
export function goDecodeError(schema: Schema, value: unknown): string | undefined {
  if (!schema['x-orch-type-name']) return goIntegerDecodeError(schema, value);
  if (!isPlainObject(value)) return undefined;
  return decodeStruct(nodeOf(schema), value, [], KINDS_AND_INTEGERS);
}

/** Which checks a walk makes: JSON kinds always, integer ranges when `integers`. */
interface Checks {
  readonly integers: boolean;
}
const KINDS_AND_INTEGERS: Checks = { integers: true };
const KINDS_ONLY: Checks = { integers: false };

/** What the walk needs of a schema node (see `schemaNodes`). */
interface GoNode {
  readonly schema: Schema;
  /** The JSON kind Go's decoder requires here; `undefined` where the kind is not checked. */
  readonly kind: JsonKind | undefined;
  /** Whether an int32/int64 whose range is checked may lie in the value. */
  readonly holdsIntegers: boolean;
  readonly preservesUnknownFields: boolean;
  readonly typeNamed: boolean;
  /** The nodes of the declared properties; `undefined` when the schema declares none. */
  readonly fields: ReadonlyMap<string, GoNode> | undefined;
  readonly items: GoNode | undefined;
  /** The node of a map's values (`additionalProperties` as a schema). */
  readonly values: GoNode | undefined;
}

const nodeOf = schemaNodes<GoNode>({
  facts: (schema, fields) => ({
    schema,
    kind: goKindOf(schema),
    holdsIntegers: holdsBoundedIntegers(schema),
    preservesUnknownFields: !!schema['x-orch-preserve-unknown-fields'],
    typeNamed: !!schema['x-orch-type-name'],
    fields: schema.properties ? fields : undefined,
    items: undefined,
    values: undefined,
  }),
  linkItems: (node, child) => (node.items = child),
  linkValues: (node, child) => (node.values = child),
});

/** The integer check of a subtree whose kinds are not checked (none in a kinds-only walk). */
function integersWithin(checks: Checks, node: GoNode, value: unknown, struct: GoNode, fields: string[]) {
  if (!checks.integers || !node.holdsIntegers) return undefined;
  return integerDecodeErrorWithin(node.schema, value, struct.schema, fields);
}

/** A struct's fields, both checks; `struct` names the fields' errors. */
function decodeStruct(
  struct: GoNode,
  value: Record<string, unknown>,
  fields: string[],
  checks: Checks,
): string | undefined {
  const declared = struct.fields;
  if (!declared || struct.preservesUnknownFields) return integersWithin(checks, struct, value, struct, fields);
  for (const key in value) {
    const field = declared.get(key);
    if (field === undefined) continue;
    fields.push(key);
    const err = decodeValue(field, value[key], struct, fields, checks);
    fields.pop();
    if (err) return err;
  }
  return undefined;
}

/** A field's value (or an item or map value of it) in `struct`, both checks. */
function decodeValue(
  node: GoNode,
  value: unknown,
  struct: GoNode,
  fields: string[],
  checks: Checks,
): string | undefined {
  if (value === null || value === undefined) return undefined;
  const expected = node.kind;
  // Most values are strings where strings belong: nothing more to check.
  if (expected === 'string' && typeof value === 'string') return undefined;
  // Where the kind is not checked, integers still are (as goIntegerDecodeError walks).
  if (expected === undefined) return integersWithin(checks, node, value, struct, fields);
  const kind = jsonKind(value);
  if (kind !== expected) {
    // Go skips a value of the wrong kind: nothing inside it is read.
    const type = goTypeName(node.schema);
    return type === undefined ? undefined : goUnmarshalError(kind, structName(struct.schema), fields, type);
  }
  switch (kind) {
    case 'number': {
      // The struct's name is worded only for an error: most numbers fit.
      const format =
        checks.integers && node.holdsIntegers ? outOfRange(node.schema, value as number | bigint) : undefined;
      return format && goUnmarshalError(`number ${value}`, structName(struct.schema), fields, format);
    }
    case 'array': {
      const items = node.items;
      if (!items) return undefined;
      const list = value as unknown[];
      for (let i = 0; i < list.length; i++) {
        const err = decodeValue(items, list[i], struct, fields, checks);
        if (err) return err;
      }
      return undefined;
    }
    case 'object': {
      const obj = value as Record<string, unknown>;
      if (node.fields) {
        return node.typeNamed
          ? decodeStruct(node, obj, fields, checks)
          : integersWithin(checks, node, obj, struct, fields);
      }
      const values = node.values;
      if (values === undefined) return undefined;
      for (const key in obj) {
        const err = decodeValue(values, obj[key], struct, fields, checks);
        if (err) return err;
      }
      return undefined;
    }
    default:
      return undefined;
  }
}

/**
 * Why kube-apiserver's decoder could not read `value` into the compiled-in Go type `schema`
 * describes, as far as JSON kinds go: the first value (in document order) whose kind its field
 * cannot hold, worded as Go's `encoding/json` words it, e.g. `json: cannot unmarshal string into
 * Go struct field Pod.spec of type v1.PodSpec` — the innermost struct's name, the JSON names of
 * the fields from the root (list positions and map keys are not part of it), and the Go type.
 * `null` fits every field. Returns `undefined` when every value fits.
 *
 * Conservative: types with a decoder of their own (quantities, times, int-or-string, raw JSON:
 * nodes that are named but not structs, or keep unknown fields) are left to validation, as is a
 * field whose Go type cannot be named from the schema. A named string type (`v1.RestartPolicy`)
 * is named `string` here. Integer ranges are `goIntegerDecodeError`'s. Pure.
 */
export function goTypeDecodeError(schema: Schema, value: unknown): string | undefined {
  if (!schema['x-orch-type-name'] || !isPlainObject(value)) return undefined;
  return decodeStruct(nodeOf(schema), value, [], KINDS_ONLY);
}

/** Nodes decoded by Go's plain rules: not a type with its own decoder, not free-form. */
function isChecked(schema: Schema): boolean {
  if (schema['x-orch-int-or-string'] || schema['x-orch-preserve-unknown-fields']) return false;
  if (schema['x-orch-embedded-resource']) return false;
  // A named type that is not a struct (Quantity, Time, MicroTime, Duration) decodes itself.
  if (schema['x-orch-type-name'] && !schema.properties) return false;
  return schema.format !== 'byte' && schema.format !== 'date-time';
}

/** A JSON value's kind, as Go's decoder tells them apart. */
export type JsonKind = 'string' | 'number' | 'bool' | 'object' | 'array';

/** The JSON kind Go's decoder requires of a value of `schema`; undefined where it does not check it. */
export function goKindOf(schema: Schema): JsonKind | undefined {
  return isChecked(schema) ? expectedKind(schema) : undefined;
}

function jsonKind(value: unknown): JsonKind {
  if (Array.isArray(value)) return 'array';
  switch (typeof value) {
    case 'string':
      return 'string';
    case 'number':
    case 'bigint':
      return 'number';
    case 'boolean':
      return 'bool';
    default:
      return 'object';
  }
}

function expectedKind(schema: Schema): JsonKind | undefined {
  switch (schema.type) {
    case 'string':
      return 'string';
    case 'integer':
    case 'number':
      return 'number';
    case 'boolean':
      return 'bool';
    case 'array':
      return 'array';
    case 'object':
      return 'object';
    default:
      return undefined;
  }
}

function goTypeName(schema: Schema): string | undefined {
  const named = schema['x-orch-type-name'];
  if (named) {
    const parts = named.split('.');
    return parts.length < 2 ? named : `${parts[parts.length - 2]}.${parts[parts.length - 1]}`;
  }
  switch (schema.type) {
    case 'string':
      return 'string';
    case 'boolean':
      return 'bool';
    case 'integer':
      return schema.format === 'int32' ? 'int32' : schema.format === 'int64' ? 'int64' : undefined;
    case 'number':
      return 'float64';
    case 'array': {
      const item = schema.items ? goTypeName(schema.items) : undefined;
      return item === undefined ? undefined : `[]${item}`;
    }
    case 'object': {
      if (schema.properties || typeof schema.additionalProperties !== 'object') return undefined;
      const item = goTypeName(schema.additionalProperties);
      return item === undefined ? undefined : `map[string]${item}`;
    }
    default:
      return undefined;
  }
}

import { INTEGER_FORMAT_BOUNDS, isBase64 } from './formats.js';
import { canonicalJson, jsonEqual } from './json-value.js';
import type { Schema } from './schema.js';
import { customResourceFormatCheck } from './string-formats.js';
import { isTimestamp } from './time-format.js';

/** The JSON type a node accepts (`Any`: the schema names none; `None`: a type no value has). */
export const Expect = {
  Any: 0,
  None: 1,
  Object: 2,
  Array: 3,
  String: 4,
  Boolean: 5,
  Integer: 6,
  Number: 7,
  IntOrString: 8,
} as const;
export type Expect = (typeof Expect)[keyof typeof Expect];

type Bound = number | bigint | undefined;

/**
 * One schema node as validation reads it: every keyword the walk looks at, in a class of one
 * shape. Schema nodes are object literals of many different shapes (each a mix of keywords and
 * extensions), so reading their keywords one by one in a hot walk costs a generic property
 * lookup each; the walk reads these instead. Children are compiled on first use (a value holds a
 * few of its schema's properties) and kept, as immutable as the schema they come from.
 *
 * Every field is derived from `schema` alone, exactly as the keyword-by-keyword walk read it.
 */
export class ValidationNode {
  /** The type as messages name it (`integer,string` for int-or-string). */
  readonly label: string | undefined;
  readonly expect: Expect;
  readonly nullable: boolean;
  readonly composed: boolean;
  readonly enumValues: readonly unknown[] | undefined;
  /** The enum as a set when it lists only strings (most do), where a lookup decides membership. */
  private readonly enumStrings: ReadonlySet<string> | undefined;
  /** A string constraint is set (format, lengths, pattern). */
  readonly checksString: boolean;
  readonly format: string | undefined;
  readonly formatCheck: ((value: string) => boolean) | undefined;
  readonly maxLength: number | undefined;
  readonly minLength: number | undefined;
  readonly pattern: string | undefined;
  private patternRe: RegExp | undefined = undefined;
  /** A number constraint is set (multipleOf, bounds of the schema or its integer format). */
  readonly checksNumber: boolean;
  readonly multipleOf: number | undefined;
  readonly hasBounds: boolean;
  readonly min: Bound;
  readonly max: Bound;
  readonly minExclusive: boolean;
  readonly maxExclusive: boolean;
  readonly maxItems: number | undefined;
  readonly minItems: number | undefined;
  readonly uniqueItems: boolean;
  /** `set`/`map` lists whose duplicates are errors (`undefined`: no check). */
  readonly listType: 'set' | 'map' | undefined;
  readonly listMapKeys: readonly string[];
  /** The distinct map keys in ascending order, each with its JSON form (see {@link listItemKey}). */
  private readonly listMapKeysSorted: readonly (readonly [key: string, json: string])[];
  readonly maxProperties: number | undefined;
  readonly minProperties: number | undefined;
  /** `properties` (absent: `undefined`), their names in the schema's order and positions. */
  readonly props: Readonly<Record<string, Schema>> | undefined;
  readonly propNames: readonly string[];
  readonly propIndex: ReadonlyMap<string, number>;
  private readonly propNodes: (ValidationNode | undefined)[];
  readonly hasExtra: boolean;
  readonly required: readonly string[];
  private itemsNode: ValidationNode | undefined = undefined;
  private extraNode: ValidationNode | undefined = undefined;

  constructor(readonly schema: Schema) {
    const intOrString = !!schema['x-orch-int-or-string'];
    this.label = intOrString ? 'integer,string' : schema.type;
    this.expect = intOrString ? Expect.IntOrString : expectOf(schema.type);
    this.nullable = !!schema.nullable;
    this.composed = !!(schema.allOf || schema.anyOf || schema.oneOf || schema.not);
    this.enumValues = schema.enum ? schema.enum : undefined;
    this.enumStrings = this.enumValues?.every((v) => typeof v === 'string')
      ? new Set(this.enumValues as readonly string[])
      : undefined;
    this.format = schema.format ? schema.format : undefined;
    this.formatCheck = this.format === undefined ? undefined : formatCheckOf(this.format);
    this.maxLength = schema.maxLength;
    this.minLength = schema.minLength;
    this.pattern = schema.pattern;
    this.checksString =
      this.format !== undefined ||
      schema.maxLength !== undefined ||
      schema.minLength !== undefined ||
      schema.pattern !== undefined;
    this.multipleOf = schema.multipleOf;
    const bounds = schema.format ? INTEGER_FORMAT_BOUNDS[schema.format] : undefined;
    this.hasBounds = !(bounds === undefined && schema.minimum === undefined && schema.maximum === undefined);
    this.min = maxOf(schema.minimum, bounds?.[0]);
    this.max = minOf(schema.maximum, bounds?.[1]);
    // An exclusive bound applies to the schema's own limit, not to a format's range.
    this.minExclusive = schema.exclusiveMinimum === true && this.min === schema.minimum;
    this.maxExclusive = schema.exclusiveMaximum === true && this.max === schema.maximum;
    this.checksNumber = schema.multipleOf !== undefined || this.hasBounds;
    this.maxItems = schema.maxItems;
    this.minItems = schema.minItems;
    this.uniqueItems = !!schema.uniqueItems;
    const listType = schema['x-orch-list-type'];
    this.listType =
      (listType === 'set' || listType === 'map') && schema['x-orch-list-duplicates'] !== 'allowed'
        ? listType
        : undefined;
    this.listMapKeys = schema['x-orch-list-map-keys'] ?? [];
    this.listMapKeysSorted = [...new Set(this.listMapKeys)].sort().map((k) => [k, JSON.stringify(k)] as const);
    this.maxProperties = schema.maxProperties;
    this.minProperties = schema.minProperties;
    this.props = schema.properties;
    this.propNames = this.props === undefined ? [] : Object.keys(this.props);
    this.propIndex = new Map(this.propNames.map((n, i) => [n, i]));
    this.propNodes = new Array(this.propNames.length).fill(undefined);
    this.hasExtra = typeof schema.additionalProperties === 'object';
    this.required = schema.required ?? [];
  }

  /** Whether `value` is one of the enum's values (only when {@link enumValues} is set). */
  enumAllows(value: unknown): boolean {
    // A string enum value equals (`jsonEqual`) exactly the same string.
    const strings = this.enumStrings;
    if (strings !== undefined) return typeof value === 'string' && strings.has(value);
    return this.enumValues!.some((a) => jsonEqual(a, value));
  }

  /**
   * The identity of a `map` list's item, for finding duplicates: two items have the same string
   * exactly when `canonicalJson` of their map keys that are set is the same (the duplicate error
   * shows that object; building and serializing it for every item costs more).
   */
  listItemKey(item: Record<string, unknown>): string {
    let out = '';
    for (const [key, json] of this.listMapKeysSorted) {
      const v = item[key];
      if (v !== undefined) out += `${json}:${identityPart(v)},`;
    }
    return out;
  }

  /** The node of the property at `index` of {@link propNames}. */
  property(index: number): ValidationNode {
    let node = this.propNodes[index];
    if (node === undefined) {
      node = validationNode(this.props![this.propNames[index]!]!);
      this.propNodes[index] = node;
    }
    return node;
  }

  /** The node of `items` (`undefined` when the schema has none). */
  items(): ValidationNode | undefined {
    if (this.itemsNode === undefined && this.schema.items) this.itemsNode = validationNode(this.schema.items);
    return this.itemsNode;
  }

  /** The node of an `additionalProperties` schema; only when {@link hasExtra}. */
  extra(): ValidationNode {
    this.extraNode ??= validationNode(this.schema.additionalProperties as Schema);
    return this.extraNode;
  }

  /** The pattern, compiled on first use (an invalid one throws then, as before). */
  patternRegExp(): RegExp {
    this.patternRe ??= new RegExp(this.pattern!, 'u');
    return this.patternRe;
  }
}

/**
 * A key value in a form that ends where it ends (so that parts can follow) and that equals another
 * value's exactly when their `canonicalJson` does: strings, the usual keys, by length and text
 * (no JSON escaping), anything else by `canonicalJson`, which never starts with `s`.
 */
function identityPart(v: unknown): string {
  return typeof v === 'string' ? `s${v.length}:${v}` : canonicalJson(v);
}

function expectOf(type: Schema['type']): Expect {
  switch (type) {
    case 'object':
      return Expect.Object;
    case 'array':
      return Expect.Array;
    case 'string':
      return Expect.String;
    case 'boolean':
      return Expect.Boolean;
    case 'integer':
      return Expect.Integer;
    case 'number':
      return Expect.Number;
    case undefined:
      return Expect.Any;
    default:
      return Expect.None;
  }
}

/** What `stringMatchesFormat` checks for `format`, resolved once. */
function formatCheckOf(format: string): ((value: string) => boolean) | undefined {
  switch (format) {
    case 'byte':
      return isBase64;
    case 'date-time':
      return isTimestamp;
    default:
      return customResourceFormatCheck(format);
  }
}

function maxOf(a: Bound, b: Bound): Bound {
  if (a === undefined) return b;
  return b === undefined || a > b ? a : b;
}

function minOf(a: Bound, b: Bound): Bound {
  if (a === undefined) return b;
  return b === undefined || a < b ? a : b;
}

/** Nodes compiled so far: schemas are immutable once built and share sub-schemas. */
const nodes = new WeakMap<Schema, ValidationNode>();

/** The validation node of `schema`, compiled once per schema object. */
export function validationNode(schema: Schema): ValidationNode {
  let node = nodes.get(schema);
  if (node === undefined) {
    node = new ValidationNode(schema);
    nodes.set(schema, node);
  }
  return node;
}

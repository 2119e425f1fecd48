import { QuantityError } from '../../util/go-quantity.js';
import { applyDefaults, copyOfDefault } from './defaults.js';
import { holdsBoundedIntegers, outOfRange } from './go-integer-decode.js';
import { goKindOf, type JsonKind } from './go-type-decode.js';
import { isPlainObject } from './json-value.js';
import { Where } from './prune.js';
import { canonicalizeQuantitiesIn, canonicalQuantity, holdsQuantities, isQuantitySchema } from './quantities.js';
import type { Schema } from './schema.js';
import { schemaNodes } from './schema-nodes.js';

/** What one walk of a usual body found (see {@link walkTypedBody}). */
export interface TypedBodyWalk {
  /** Keys of every object in the body as parsed, those removed included. */
  readonly keys: number;
  /** The paths of the unknown fields removed, in the order met (as `pruneUnknownFields` gives them). */
  readonly removed: string[];
  /** Whether the schema's defaults were applied too (see {@link walkTypedBody}'s `defaults`). */
  readonly defaulted: boolean;
  /** Whether every quantity was written in canonical form too (see {@link walkTypedBody}'s `quantities`). */
  readonly quantities: boolean;
}

/**
 * The three per-field walks of a JSON body of a compiled-in kind (a schema with
 * `x-orch-type-name`) in one: it counts the body's keys (for the duplicate check against its
 * text), checks what Go's decoder checks (`goDecodeError`: JSON kinds, integer ranges) and removes
 * the unknown fields (`pruneUnknownFields`, in place).
 *
 * It decides only the usual body: one Go would decode, with no number of magnitude 1e15 or more
 * (which may need exact integers), and no part that the separate walks treat specially (a value
 * of another kind than its field's, free-form or embedded objects, list items without a schema).
 * For any other body it returns undefined, possibly after removing some fields: the caller then
 * parses the text again and takes the separate walks, which report exactly.
 *
 * With `defaults`, the walk also applies the schema's defaults (`applyDefaults`, with the same
 * result, key order included) to the body it decides, as kube defaults on decode: one walk fewer
 * for a create. Keys a default adds are not counted. With `quantities` as well, it then writes
 * every quantity in canonical form (`canonicalizeQuantitiesIn` after `applyDefaults`, with the
 * same result); a malformed quantity leaves the body undecided, for the separate walks to report.
 */
export function walkTypedBody(
  schema: Schema,
  value: Record<string, unknown>,
  o: { readonly defaults?: boolean; readonly quantities?: boolean } = {},
): TypedBodyWalk | undefined {
  const defaults = !!o.defaults;
  const quantities = defaults && !!o.quantities;
  const walk = new BodyWalk(defaults, quantities);
  try {
    walk.struct(nodeOf(schema), value, true);
  } catch (e) {
    // A body nested deeper than the stack allows (through a schema that reaches itself) is left
    // to the separate walks too.
    if (e === UNDECIDED || e instanceof RangeError) return undefined;
    throw e;
  }
  return { keys: walk.keys, removed: walk.removed, defaulted: defaults, quantities };
}

/** Thrown inside the walk when the body is not one it decides. */
const UNDECIDED = Symbol('undecided');

/** What the walk needs of a schema node: the facts of Go's decode and of pruning together. */
interface BodyNode {
  readonly schema: Schema;
  /** The JSON kind Go's decoder requires (`goKindOf`); undefined where the kind is not checked. */
  readonly kind: JsonKind | undefined;
  readonly holdsIntegers: boolean;
  /** A struct Go decodes field by field (a named type with properties). */
  readonly struct: boolean;
  /** Free-form or embedded: pruned and decoded by rules this walk leaves to the separate walks. */
  readonly special: boolean;
  /** The declared properties (empty when none: every key of an object here is unknown). */
  readonly fields: ReadonlyMap<string, BodyNode>;
  readonly items: BodyNode | undefined;
  /** The node of map values (`additionalProperties` as a schema). */
  readonly values: BodyNode | undefined;
  /** `additionalProperties: true`: any key is known, and nothing below it is pruned. */
  readonly anyKey: boolean;
  /** The schema's `nullable`: a null value stays (else it is defaulted, or removed). */
  readonly nullable: boolean;
  /** The declared properties that carry a `default`, in the schema's order. */
  readonly defaulted: readonly { readonly name: string; readonly node: BodyNode }[];
  /** A quantity's schema. */
  readonly quantity: boolean;
  /** Whether a value here may hold a quantity. */
  readonly holdsQuantities: boolean;
}

const nodeOf = schemaNodes<BodyNode>({
  facts: (schema, fields) => ({
    schema,
    kind: goKindOf(schema),
    holdsIntegers: holdsBoundedIntegers(schema),
    struct: !!schema['x-orch-type-name'] && !!schema.properties,
    special: !!schema['x-orch-preserve-unknown-fields'] || !!schema['x-orch-embedded-resource'],
    fields,
    items: undefined,
    values: undefined,
    anyKey: schema.additionalProperties === true,
    nullable: !!schema.nullable,
    defaulted: [],
    quantity: isQuantitySchema(schema),
    holdsQuantities: holdsQuantities(schema),
  }),
  linkProperty: (node, name, child, sub) => {
    if (sub.default !== undefined) node.defaulted = [...node.defaulted, { name, node: child }];
  },
  linkItems: (node, child) => (node.items = child),
  linkValues: (node, child) => (node.values = child),
});

/** The smallest magnitude of a number that may need an exact integer (`decodeJsonStrict`'s test). */
const SIXTEEN_DIGITS = 1e15;

class BodyWalk {
  keys = 0;
  readonly removed: string[] = [];
  /** The path of the value being walked, as pruning keeps it: a path string is made only for a removal. */
  private readonly where = new Where('');

  constructor(
    /** Whether the schema's defaults are applied as the walk goes. */
    private readonly defaults: boolean,
    /** Whether quantities are written in canonical form as the walk goes (with the defaults). */
    private readonly quantities: boolean,
  ) {}

  /**
   * An object at a node with properties. `go`: Go's decoder reads it field by field (a struct it
   * decodes), so its fields' kinds are checked.
   */
  struct(node: BodyNode, value: Record<string, unknown>, go: boolean): void {
    if (node.special) throw UNDECIDED;
    const fields = node.fields;
    for (const key in value) {
      this.keys++;
      const v = value[key];
      const field = fields.get(key);
      if (field !== undefined) this.member(value, key, v, field, go);
      else if (node.anyKey) this.count(v);
      // A map part beside declared fields: pruned below, not decoded by Go as this struct's.
      else if (node.values !== undefined) this.member(value, key, v, node.values, false);
      else {
        this.count(v);
        delete value[key];
        this.removed.push(this.where.child(key));
      }
    }
    if (this.defaults) this.addDefaults(node, value);
  }

  /**
   * The defaults of the properties `value` lacks, as `applyDefaults` adds them (after the keys it
   * holds, in the schema's order), each with the defaults below it.
   */
  private addDefaults(node: BodyNode, value: Record<string, unknown>): void {
    const defaulted = node.defaulted;
    for (let i = 0; i < defaulted.length; i++) {
      const field = defaulted[i]!;
      // A null here was defaulted, removed or (nullable) kept by the walk already.
      if (value[field.name] !== undefined) continue;
      value[field.name] = this.defaultOf(field.node);
    }
  }

  /** A copy of `node`'s default, with the defaults below it, and its quantities canonical. */
  private defaultOf(node: BodyNode): unknown {
    const copy = copyOfDefault(node.schema.default);
    if (copy !== null && typeof copy === 'object') applyDefaults(node.schema, copy);
    if (!this.quantities || !node.holdsQuantities) return copy;
    if (node.quantity) return this.canonical(copy);
    try {
      canonicalizeQuantitiesIn(node.schema, copy);
    } catch (e) {
      throw e instanceof QuantityError ? UNDECIDED : e;
    }
    return copy;
  }

  /** `v`, a quantity, in canonical form; a malformed one leaves the body undecided. */
  private canonical(v: unknown): unknown {
    try {
      return canonicalQuantity(v);
    } catch (e) {
      throw e instanceof QuantityError ? UNDECIDED : e;
    }
  }

  /**
   * Member `key` of `obj`, holding `v`, at `node`. A leaf is checked without its path: paths are
   * needed only to name removed unknown fields, which objects hold.
   */
  private member(obj: Record<string, unknown>, key: string, v: unknown, node: BodyNode, go: boolean): void {
    if (v === null) {
      if (this.defaults) this.nullAt(obj, key, node);
    } else if (typeof v !== 'object') {
      this.scalar(node, v, go);
      if (this.quantities && node.quantity) obj[key] = this.canonical(v);
    } else {
      this.where.push(key);
      this.value(node, v, go);
      this.where.pop();
    }
  }

  /**
   * A null member at `node` (decoded from the body, so walked no further): as `applyDefaults`
   * treats it, a copy of the default when the schema has one and is not nullable, removed when
   * it has none.
   */
  private nullAt(obj: Record<string, unknown>, key: string, node: BodyNode): void {
    if (node.nullable) return;
    if (node.schema.default === undefined) delete obj[key];
    else obj[key] = this.defaultOf(node);
  }

  /**
   * A value at `node` that is neither an object nor null (its checks need no path: they only
   * decide whether the walk decides the body); `go`: Go's decoder checks its kind.
   */
  private scalar(node: BodyNode, v: unknown, go: boolean): void {
    if (go && node.kind !== undefined && node.kind !== scalarKind(v)) throw UNDECIDED;
    if (typeof v === 'number') {
      if (!(v < SIXTEEN_DIGITS && v > -SIXTEEN_DIGITS)) throw UNDECIDED;
      if (go && node.holdsIntegers && outOfRange(node.schema, v) !== undefined) throw UNDECIDED;
    } else if (typeof v === 'bigint') throw UNDECIDED;
    // Where Go does not check the kind, it still checks integer ranges below: left to its walk.
    if (go && node.kind === undefined && node.holdsIntegers) throw UNDECIDED;
  }

  /** A value at `node`; `go`: Go's decoder checks its kind. */
  private value(node: BodyNode, v: unknown, go: boolean): void {
    if (v === null || v === undefined) return;
    if (typeof v !== 'object') {
      this.scalar(node, v, go);
      return;
    }
    if (node.special) throw UNDECIDED;
    if (Array.isArray(v)) {
      if (node.kind !== 'array' && (go || node.kind !== undefined)) throw UNDECIDED;
      const items = node.items;
      if (items === undefined) throw UNDECIDED;
      for (let i = 0; i < v.length; i++) {
        const item: unknown = v[i];
        if (item === null || item === undefined) continue;
        if (typeof item !== 'object') {
          this.scalar(items, item, go);
          if (this.quantities && items.quantity) v[i] = this.canonical(item);
        } else {
          this.where.push(i);
          this.value(items, item, go);
          this.where.pop();
        }
      }
      return;
    }
    if (node.kind !== 'object' || !isPlainObject(v)) throw UNDECIDED;
    if (node.fields.size > 0 || node.schema.properties) {
      // A struct Go decodes field by field; other objects with properties it checks only for
      // integer ranges, which are left to its walk.
      if (go && !node.struct && node.holdsIntegers) throw UNDECIDED;
      this.struct(node, v, go && node.struct);
      return;
    }
    const values = node.values;
    if (values !== undefined) {
      const map = v as Record<string, unknown>;
      for (const key in map) {
        this.keys++;
        this.member(map, key, map[key], values, go);
      }
      return;
    }
    if (node.anyKey) {
      this.count(v);
      return;
    }
    // An object whose schema declares nothing: all of its fields are unknown.
    this.struct(node, v, false);
  }

  /**
   * Counts the keys of a value the walk does not descend into; a large number is undecided. No
   * recursion: an unknown field may nest as deep as the text allows.
   */
  private count(v: unknown): void {
    const pending: unknown[] = [v];
    while (pending.length > 0) {
      const next = pending.pop();
      if (next === null || typeof next !== 'object') {
        if (typeof next === 'number' ? !(next < SIXTEEN_DIGITS && next > -SIXTEEN_DIGITS) : typeof next === 'bigint') {
          throw UNDECIDED;
        }
      } else if (Array.isArray(next)) {
        for (const item of next) pending.push(item);
      } else {
        for (const key in next) {
          this.keys++;
          pending.push((next as Record<string, unknown>)[key]);
        }
      }
    }
  }
}

function scalarKind(v: unknown): JsonKind {
  switch (typeof v) {
    case 'string':
      return 'string';
    case 'boolean':
      return 'bool';
    default:
      return 'number';
  }
}

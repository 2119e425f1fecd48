/**
 * A JSON object of a schema object type, as CEL reads it. The engine reads a field of a declared
 * object type as `obj[name]` (`obj.get(name)` when the object is a `Map`), so each object type has
 * a generated class with a getter per accessible property that converts the JSON value when read
 * (integers to `bigint`, nested objects to their own type): an expression pays only for the fields
 * it reads. Containers are converted once per object and kept.
 *
 * The getters are compiled per type (`new Function`) so that each reads a constant property of the
 * JSON object and a slot of its own, which the JavaScript engine keeps monomorphic; the generated
 * code contains only JSON-quoted property names and numbers.
 */

/** How one accessible property is read: its JSON name and its conversion. */
export interface SchemaField {
  readonly jsonName: string;
  readonly convert: (value: unknown) => unknown;
  /** Whether the converted value is worth keeping (a container) rather than converting again. */
  readonly keep: boolean;
}

/** Marks the classes of schema objects (also the `Map`-based ones, whose prototype is `Map`'s). */
const SCHEMA_CLASS: unique symbol = Symbol('orch.cel.schemaObjectClass');
/** Where a `Map`-based schema object keeps its JSON. */
const MAP_JSON: unique symbol = Symbol('orch.cel.json');

/**
 * Base of the generated class of every schema object type (the engine tells types apart by
 * constructor). Fields are the escaped CEL names; properties that are absent or `null` read as
 * absent, so `has()` is false for them.
 */
export class SchemaObject {
  static readonly [SCHEMA_CLASS] = true;

  /** The JSON object read from, never modified. `$` cannot start a CEL name, so no field hides it. */
  readonly $json: Readonly<Record<string, unknown>>;

  constructor(json: Readonly<Record<string, unknown>>) {
    this.$json = json;
  }

  static [Symbol.hasInstance](value: unknown): boolean {
    return (
      typeof value === 'object' &&
      value !== null &&
      (value.constructor as { [SCHEMA_CLASS]?: true })?.[SCHEMA_CLASS] === true
    );
  }
}

/** The JSON object `o` reads from (never modified). */
export function schemaJson(o: SchemaObject): Readonly<Record<string, unknown>> {
  return (o as { [MAP_JSON]?: Readonly<Record<string, unknown>> })[MAP_JSON] ?? o.$json;
}

/** A class of {@link SchemaObject} for one object type, whose constructor takes the JSON object. */
export type SchemaObjectClass = new (json: Readonly<Record<string, unknown>>) => SchemaObject;

/** Stands for "not read yet" in a kept slot (a read may keep `undefined`). */
const UNREAD: unique symbol = Symbol('unread');

/**
 * Names a getter may not take: `constructor` identifies the type to the engine, `__proto__` is
 * the prototype. A type with such a property is a `Map` instead, read through `get`.
 */
const RESERVED_KEYS = new Set(['constructor', '__proto__']);

/** A new class for an object type with the given fields (escaped CEL name → field). */
export function schemaObjectClass(fields: ReadonlyMap<string, SchemaField>): SchemaObjectClass {
  if ([...fields.keys()].some((k) => RESERVED_KEYS.has(k))) return mapBackedClass(fields);
  const list = [...fields];
  const slots = list.flatMap(([, f], i) => (f.keep ? [`this.$${i} = UNREAD;`] : [])).join(' ');
  const C = new Function(
    'Base',
    'UNREAD',
    `return class extends Base { constructor(json) { super(json); ${slots} } };`,
  )(SchemaObject, UNREAD) as SchemaObjectClass;
  list.forEach(([name, field], i) => {
    const key = JSON.stringify(field.jsonName);
    const read = `const j = this.$json; const r = hasOwn(j, ${key}) ? j[${key}] : undefined; `;
    const body = field.keep
      ? `let v = this.$${i}; if (v === UNREAD) { ${read}v = this.$${i} = r === undefined || r === null ? undefined : convert(r); } return v;`
      : `${read}return r === undefined || r === null ? undefined : convert(r);`;
    const get = new Function('hasOwn', 'convert', 'UNREAD', `return function () { ${body} };`)(
      Object.hasOwn,
      field.convert,
      UNREAD,
    );
    Object.defineProperty(C.prototype, name, { get });
  });
  return C;
}

function mapBackedClass(fields: ReadonlyMap<string, SchemaField>): SchemaObjectClass {
  class MapBacked extends Map<string, unknown> {
    static readonly [SCHEMA_CLASS] = true;
    readonly [MAP_JSON]: Readonly<Record<string, unknown>>;

    constructor(json: Readonly<Record<string, unknown>>) {
      super();
      this[MAP_JSON] = json;
    }

    override get(name: string): unknown {
      if (super.has(name)) return super.get(name);
      const field = fields.get(name);
      if (field === undefined) return undefined;
      const json = this[MAP_JSON];
      const raw = Object.hasOwn(json, field.jsonName) ? json[field.jsonName] : undefined;
      const value = raw === undefined || raw === null ? undefined : field.convert(raw);
      super.set(name, value);
      return value;
    }
  }
  return MapBacked as unknown as SchemaObjectClass;
}

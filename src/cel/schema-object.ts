/**
 * A JSON object of a schema object type, as CEL reads it. The engine reads the fields of a
 * declared object type through `Map#get`, so the object is a `Map` whose `get` converts the
 * property on first access (integers to `bigint`, nested objects to their own type, ...) and
 * remembers the result: an expression pays only for the fields it reads.
 */

/** How one accessible property is read: its JSON name and its conversion. */
export interface SchemaField {
  readonly jsonName: string;
  readonly convert: (value: unknown) => unknown;
}

/** Marks a property read and found absent (a `Map` cannot hold `undefined` distinguishably). */
const ABSENT: unique symbol = Symbol('absent');

/**
 * Base of the generated class of every schema object type (the engine tells types apart by
 * constructor). Keys are the escaped CEL names; properties that are absent or `null` read as
 * absent, so `has()` is false for them.
 */
export class SchemaObject extends Map<string, unknown> {
  readonly #fields: ReadonlyMap<string, SchemaField>;

  constructor(
    /** The JSON object, as given; never modified. */
    readonly json: Readonly<Record<string, unknown>>,
    fields: ReadonlyMap<string, SchemaField>,
  ) {
    super();
    this.#fields = fields;
  }

  override get(name: string): unknown {
    const cached = super.get(name);
    if (cached !== undefined) return cached === ABSENT ? undefined : cached;
    const field = this.#fields.get(name);
    if (field === undefined) return undefined;
    const raw = Object.hasOwn(this.json, field.jsonName) ? this.json[field.jsonName] : undefined;
    const value = raw === undefined || raw === null ? undefined : field.convert(raw);
    super.set(name, value === undefined ? ABSENT : value);
    return value;
  }
}

/** A class of {@link SchemaObject} for one object type, whose constructor takes the JSON object. */
export type SchemaObjectClass = new (json: Readonly<Record<string, unknown>>) => SchemaObject;

/** A new class for an object type with the given fields (escaped CEL name → field). */
export function schemaObjectClass(fields: ReadonlyMap<string, SchemaField>): SchemaObjectClass {
  return class extends SchemaObject {
    constructor(json: Readonly<Record<string, unknown>>) {
      super(json, fields);
    }
  };
}

import { type ProtoField, SchemaGenError, type UpstreamFacts, type UpstreamSchema } from './facts.js';

/**
 * Where each JSON property of a definition travels in protobuf: directly as a field of the
 * definition's message, or inside the message field of a struct Go embeds with
 * `json:",inline"` (JSON flattens it into the parent, protobuf keeps it nested).
 */
export interface PropertyField {
  readonly field: ProtoField;
  /** The parent's field holding the inlined struct, when the property travels inside one. */
  readonly via?: ProtoField;
}

export interface ProtobufLayout {
  /** Fields by JSON property name (properties without one are absent). */
  readonly properties: ReadonlyMap<string, PropertyField>;
  /** The inlined structs' fields of the parent, in field number order. */
  readonly inlined: readonly ProtoField[];
}

/** The layout of `def`; throws for fields without a JSON property and nested inlining. */
export function protobufLayout(facts: UpstreamFacts, def: string, s: UpstreamSchema): ProtobufLayout {
  const fields = facts.protobuf[def] ?? {};
  const props = s.properties ?? {};
  const properties = new Map<string, PropertyField>();
  const inlined: ProtoField[] = [];
  for (const [name, field] of Object.entries(fields)) {
    if (field.inline === undefined) {
      if (!(name in props)) throw new SchemaGenError(`${def}: protobuf field ${name} has no JSON property`);
      properties.set(name, { field });
      continue;
    }
    const inner = facts.protobuf[field.inline];
    if (inner === undefined) throw new SchemaGenError(`${def}.${name}: no protobuf fields of ${field.inline}`);
    inlined.push(field);
    for (const [innerName, innerField] of Object.entries(inner)) {
      if (innerField.inline !== undefined) {
        throw new SchemaGenError(`${def}.${name}: ${field.inline} inlines another struct; not supported`);
      }
      if (!(innerName in props)) {
        throw new SchemaGenError(`${def}: protobuf field ${name}.${innerName} has no JSON property`);
      }
      if (properties.has(innerName)) throw new SchemaGenError(`${def}: property ${innerName} travels twice`);
      properties.set(innerName, { field: innerField, via: field });
    }
  }
  inlined.sort((a, b) => a.number - b.number);
  return { properties, inlined };
}

/**
 * Property order as Go declares the fields (the order kube writes them in JSON): the TypeMeta
 * fields first, then the order of the protobuf facts, which list a struct's fields as Go
 * declares them (not by number: core/v1 ConfigMap declares `immutable`, field 4, before `data`,
 * field 2), an inlined struct's fields where the struct is embedded.
 */
export function propertyOrder(layout: ProtobufLayout, names: string[]): string[] {
  const typeMeta = ['apiVersion', 'kind'];
  const declared = [...layout.properties.keys()];
  const rank = (n: string): number => {
    const at = declared.indexOf(n);
    if (at >= 0) return at;
    // A property without a protobuf field: TypeMeta's (in the envelope), else last.
    return typeMeta.includes(n) ? typeMeta.indexOf(n) - typeMeta.length : declared.length;
  };
  return [...names].sort((a, b) => rank(a) - rank(b) || a.localeCompare(b));
}

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
 * Property order as Go declares the fields: the TypeMeta fields first, then by protobuf number
 * (go-to-protobuf numbers fields in struct order), an inlined struct's fields at its number.
 */
export function propertyOrder(layout: ProtobufLayout, names: string[]): string[] {
  const typeMeta = ['apiVersion', 'kind'];
  const rank = (n: string): [number, number] => {
    const pf = layout.properties.get(n);
    if (pf === undefined) return [typeMeta.includes(n) ? typeMeta.indexOf(n) - 2 : 0, 0];
    return pf.via ? [pf.via.number, pf.field.number] : [pf.field.number, 0];
  };
  return [...names].sort((a, b) => {
    const [a1, a2] = rank(a);
    const [b1, b2] = rank(b);
    return a1 - b1 || a2 - b2 || a.localeCompare(b);
  });
}

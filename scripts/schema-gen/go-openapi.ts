import { type ProtoField, SchemaGenError, type UpstreamSchema } from './facts.js';
import type { GoField } from './go-source.js';
import { commentTags, hasProse, jsonTag, protobufTag, singleTag } from './go-tags.js';
import { protoTypeName, type TypeNode, type TypeResolver, typeFormat } from './go-types.js';
import type { GoPackage } from './go-universe.js';

/**
 * kube-openapi's openapi-gen rules (the version kube v1.32 builds with), applied to parsed Go
 * declarations: one OpenAPI v3 definition per struct, as kube-apiserver publishes it minus the
 * descriptions, plus the protobuf fields of the same message. Rules:
 *
 * - properties from `json` tags; `json:",inline"` members are flattened; `json:"-"` skipped;
 * - `required`: no `omitempty` and no `+optional` (or an explicit `+required`);
 * - types and formats of kube-openapi's `OpenAPITypeFormat`; named non-struct types are inlined;
 *   `enum` (sorted) for `+enum` types with declared constants;
 * - `default`: a `+default=` marker (on the member, else on its type), else the enforced zero
 *   value: `{}` for non-pointer structs (not for types with their own JSON form), the zero of
 *   non-pointer, non-`omitempty` scalars; list items and map values as if never `omitempty`;
 * - member markers `+listType`, `+listMapKey`, `+mapType`, `+structType`, `+patchStrategy`,
 *   `+patchMergeKey` become `x-kubernetes-*` extensions; type markers likewise on the
 *   definition, with `+union` members as `x-kubernetes-unions`;
 * - a `$ref` with siblings (a description in kube's documents, a default or an extension) is
 *   wrapped in `allOf`, as kube's v3 documents do.
 *
 * The protobuf facts also say which fields are Go pointers to scalars (a zero is a set value)
 * and which `omitempty` scalars default to their zero value (a default kube never writes).
 */

const REF = '#/components/schemas/';

/** Markers openapi-gen turns into extensions: marker → extension, and whether always a list. */
const EXTENSIONS: Readonly<Record<string, readonly [string, boolean]>> = {
  patchMergeKey: ['x-kubernetes-patch-merge-key', false],
  patchStrategy: ['x-kubernetes-patch-strategy', false],
  listMapKey: ['x-kubernetes-list-map-keys', true],
  listType: ['x-kubernetes-list-type', false],
  mapType: ['x-kubernetes-map-type', false],
  structType: ['x-kubernetes-map-type', false],
  validations: ['x-kubernetes-validations', false],
};

/** What one struct contributes to the facts. */
export interface StructFacts {
  readonly schema: UpstreamSchema;
  /** Protobuf fields by JSON name; an inlined struct's field by its protobuf name, with `inline`. */
  readonly protobuf: Record<string, ProtoField>;
  /** Protobuf fields of the structs inlined into this one, by definition name. */
  readonly inlined: Record<string, Record<string, ProtoField>>;
  /** Definitions referenced by `$ref`. */
  readonly references: string[];
  /** Whether the struct embeds `metav1.TypeMeta` (apiVersion and kind). */
  readonly hasTypeMeta: boolean;
}

/** `+name=value` extensions of a comment block (member or type), as openapi-gen emits them. */
function extensionsOf(lines: readonly string[]): Record<string, unknown> {
  const tags = commentTags(lines);
  const out: Record<string, unknown> = {};
  for (const value of tags.get('k8s:openapi-gen') ?? []) {
    if (!value.startsWith('x-kubernetes-')) continue;
    const colon = value.indexOf(':');
    if (colon < 0) throw new SchemaGenError(`invalid extension marker ${value}`);
    out[value.slice(0, colon)] = value.slice(colon + 1);
  }
  for (const name of [...tags.keys()].sort()) {
    const ext = EXTENSIONS[name];
    if (!ext) continue;
    const values = tags.get(name) ?? [];
    out[ext[0]] = ext[1] || values.length > 1 ? values : values[0];
  }
  return out;
}

function isFalseForOpenApi(lines: readonly string[]): boolean {
  return (commentTags(lines).get('k8s:openapi-gen') ?? []).includes('false');
}

/** Whether `s` (of a non-pointer member of type `n`) defaults to the zero value of a scalar. */
function zeroDefault(s: UpstreamSchema, n: TypeNode, r: TypeResolver): boolean {
  if (n.k === 'pointer' || !('default' in s)) return false;
  const tf = typeFormat(r.resolve(n));
  return tf !== undefined && JSON.stringify(s.default) === JSON.stringify(tf[2]);
}

/** A `$ref` to `def`, wrapped in `allOf` when it has siblings. */
function refTo(def: string, siblings: UpstreamSchema): UpstreamSchema {
  return Object.keys(siblings).length === 0 ? { $ref: REF + def } : { allOf: [{ $ref: REF + def }], ...siblings };
}

export class OpenApiRules {
  constructor(private readonly r: TypeResolver) {}

  /** Enum values of a `+enum` string type (pointers looked through), sorted as openapi-gen sorts them. */
  private enumOf(n: TypeNode): string[] | undefined {
    const t = n.k === 'pointer' ? n.elem : n;
    if (t.k !== 'alias' || !commentTags(t.decl.comments).has('enum')) return undefined;
    const u = this.r.underlying(t);
    if (u.k !== 'builtin' || u.name !== 'string') return undefined;
    const values = new Set<string>();
    for (const c of t.scope.pkg.consts) {
      if (c.type === t.decl.name && c.value !== undefined) values.add(c.value);
    }
    if (values.size === 0) return undefined;
    // openapi-gen sorts the Go-quoted literals.
    return [...values].sort((a, b) => {
      const qa = JSON.stringify(a);
      const qb = JSON.stringify(b);
      return qa < qb ? -1 : qa > qb ? 1 : 0;
    });
  }

  /** A `+default=` value: on `comments`, else on the type chain (pointers, aliases) of `n`. */
  private defaultFromComments(comments: readonly string[], pkg: GoPackage, n: TypeNode | undefined, where: string) {
    let lines = comments;
    let owner: GoPackage | undefined = pkg;
    let t = n;
    let tag: string | undefined;
    for (;;) {
      tag = singleTag(commentTags(lines), 'default', where);
      if (t === undefined || (tag !== undefined && tag !== '')) break;
      lines = this.r.comments(t);
      owner = this.r.packageOf(t) ?? owner;
      t = t.k === 'pointer' ? t.elem : t.k === 'alias' ? this.r.underlying(t) : undefined;
    }
    if (tag === undefined || tag === '') return undefined;
    const ref = /^ref\(([^"]+)\)$/.exec(tag);
    if (ref) {
      const name = ref[1];
      if (name.includes('.') || name.includes('/'))
        throw new SchemaGenError(`${where}: default ${tag} in another package`);
      const c = owner?.consts.find((x) => x.name === name);
      if (c?.value === undefined) throw new SchemaGenError(`${where}: default ${tag}: no string constant ${name}`);
      return { value: c.value as unknown };
    }
    try {
      return { value: JSON.parse(tag) as unknown };
    } catch {
      throw new SchemaGenError(`${where}: default ${tag} is not JSON`);
    }
  }

  /** openapi-gen's `mustEnforceDefault`: the zero value a non-pointer field always has in JSON. */
  private enforcedDefault(n: TypeNode, omitEmpty: boolean, where: string): { value: unknown } | undefined {
    switch (n.k) {
      case 'special':
        return undefined;
      case 'alias':
        return this.enforcedDefault(this.r.underlying(n), omitEmpty, where);
      case 'pointer':
      case 'map':
      case 'slice':
      case 'array':
      case 'interface':
        return undefined;
      case 'struct': {
        const fields = this.r.fields(n);
        if (fields.length === 1 && fields[0].embedded) {
          return this.enforcedDefault(this.r.node(fields[0].type, n.scope, where), omitEmpty, where);
        }
        return { value: {} };
      }
      case 'builtin': {
        if (omitEmpty) return undefined;
        const tf = typeFormat(n);
        if (!tf) throw new SchemaGenError(`${where}: no zero value for ${n.name}`);
        return { value: tf[2] };
      }
    }
  }

  private defaultOf(comments: readonly string[], pkg: GoPackage, n: TypeNode, omitEmpty: boolean, where: string) {
    const fromComments = this.defaultFromComments(comments, pkg, n, where);
    const enforced = this.enforcedDefault(n, omitEmpty, where);
    if (enforced && fromComments && JSON.stringify(enforced.value) !== JSON.stringify(fromComments.value)) {
      throw new SchemaGenError(`${where}: +default contradicts the zero value of a non-pointer field`);
    }
    return enforced ?? fromComments;
  }

  /** The schema of a list item or map value (openapi-gen's slice/map element rules). */
  private elementSchema(elem: TypeNode, pkg: GoPackage, where: string, refs: string[]): UpstreamSchema {
    const owner = this.r.packageOf(elem) ?? pkg;
    const def = this.defaultOf(this.r.comments(elem), owner, elem, false, where);
    const siblings: UpstreamSchema = def ? { default: def.value } : {};
    return this.valueSchema(elem, siblings, pkg, where, refs);
  }

  /** The schema of a value of type `n` with `siblings` (default, extensions) added. */
  private valueSchema(
    n: TypeNode,
    siblings: UpstreamSchema,
    pkg: GoPackage,
    where: string,
    refs: string[],
  ): UpstreamSchema {
    const t = this.r.resolve(n);
    const tf = typeFormat(t);
    if (tf) {
      const out: UpstreamSchema = { ...siblings, type: tf[0] };
      if (tf[1] !== '') out.format = tf[1];
      const values = this.enumOf(n);
      if (values) out.enum = values;
      return out;
    }
    switch (t.k) {
      case 'map': {
        const key = this.r.resolve(t.key);
        if (key.k !== 'builtin' || key.name !== 'string')
          throw new SchemaGenError(`${where}: map keys must be strings`);
        return {
          ...siblings,
          type: 'object',
          additionalProperties: this.elementSchema(t.value, pkg, `${where}{}`, refs),
        };
      }
      case 'slice':
      case 'array':
        return { ...siblings, type: 'array', items: this.elementSchema(t.elem, pkg, `${where}[]`, refs) };
      case 'struct':
      case 'special':
        refs.push(t.def);
        return refTo(t.def, siblings);
      default:
        throw new SchemaGenError(`${where}: no schema for a ${t.k}`);
    }
  }

  /** The property schema of one (non-inline) member. */
  private property(m: GoField, n: TypeNode, pkg: GoPackage, where: string, refs: string[]): UpstreamSchema {
    const tags = commentTags(m.comments);
    for (const name of tags.keys()) {
      if (name.startsWith('k8s:validation:')) throw new SchemaGenError(`${where}: +${name} markers are not supported`);
    }
    const ext = extensionsOf(m.comments);
    const json = jsonTag(m.tag);
    if (json?.string) return { ...ext, type: 'string' };
    const def = this.defaultOf(m.comments, pkg, n, json?.omitempty ?? false, where);
    const siblings: UpstreamSchema = { ...ext, ...(def ? { default: def.value } : {}) };
    const t = this.r.resolve(n);
    // A reference with a description in kube's documents is wrapped in allOf.
    const described = hasProse(m.comments) && (t.k === 'struct' || t.k === 'special');
    const schema = this.valueSchema(n, siblings, pkg, where, refs);
    if (described && schema.$ref !== undefined) return { allOf: [{ $ref: schema.$ref }] };
    return schema;
  }

  /** The protobuf field of a member (or undefined when the member has no protobuf tag). */
  private protoField(m: GoField, n: TypeNode, pkg: GoPackage, where: string): ProtoField | undefined {
    const tag = protobufTag(m.tag, where);
    if (!tag) return undefined;
    const t = this.r.resolve(n);
    const isBytes = typeFormat(t)?.[1] === 'byte' && t.k === 'slice';
    // go-to-protobuf takes the label from the Go type: some tags say `opt` on a slice or `rep`
    // on a string, and generated.proto follows the type.
    const isList = (t.k === 'slice' || t.k === 'array') && !isBytes;
    const label = t.k === 'map' ? 'map' : isList ? 'repeated' : 'optional';
    const field: ProtoField = { number: tag.number, label, type: protoTypeName(this.r, n, pkg, where) };
    const scalar = typeFormat(t) !== undefined && !isBytes;
    if (n.k === 'pointer' && scalar) field.pointer = true;
    return field;
  }

  /** The facts of the named struct `n`. */
  struct(n: TypeNode & { k: 'struct' }): StructFacts {
    const properties: Record<string, UpstreamSchema> = {};
    const required: string[] = [];
    const protobuf: Record<string, ProtoField> = {};
    const inlined: Record<string, Record<string, ProtoField>> = {};
    const references: string[] = [];
    let hasTypeMeta = false;
    const add = (owner: TypeNode & { k: 'struct' }, into: Record<string, ProtoField> | undefined) => {
      for (const m of this.r.fields(owner)) {
        const where = `${owner.def}.${m.name}`;
        if (isFalseForOpenApi(m.comments)) continue;
        const json = jsonTag(m.tag);
        const node = this.r.node(m.type, owner.scope, where);
        if (json?.inline) {
          const inner = this.r.resolve(node);
          if (inner.k !== 'struct') throw new SchemaGenError(`${where}: only structs can be inlined`);
          if (inner.def === 'io.k8s.apimachinery.pkg.apis.meta.v1.TypeMeta') hasTypeMeta = true;
          const tag = protobufTag(m.tag, where);
          if (tag === undefined || into === undefined) {
            // Not part of the message (TypeMeta's fields travel in the envelope).
            if (tag !== undefined) throw new SchemaGenError(`${where}: a protobuf field inside a non-message struct`);
            add(inner, undefined);
            continue;
          }
          const pbName = tag.name ?? `${m.name[0].toLowerCase()}${m.name.slice(1)}`;
          into[pbName] = {
            number: tag.number,
            label: 'optional',
            type: protoTypeName(this.r, inner, owner.scope.pkg, where),
            inline: inner.def,
          };
          inlined[inner.def] = {};
          add(inner, inlined[inner.def]);
          continue;
        }
        if (m.embedded && !json?.name) throw new SchemaGenError(`${where}: an embedded field without a JSON name`);
        if (json?.skip) continue;
        const name = json === undefined ? m.name : json.name;
        if (name === '') throw new SchemaGenError(`${where}: a json tag without a name`);
        if (name in properties) throw new SchemaGenError(`${where}: property ${name} declared twice`);
        const tags = commentTags(m.comments);
        if (tags.has('optional') && tags.has('required')) {
          throw new SchemaGenError(`${where}: both +optional and +required`);
        }
        const optional = tags.has('required') ? false : tags.has('optional') || (json?.omitempty ?? false);
        if (!optional) required.push(name);
        properties[name] = this.property(m, node, owner.scope.pkg, where, references);
        const pf = this.protoField(m, node, owner.scope.pkg, where);
        if (pf && !pf.pointer && json?.omitempty && zeroDefault(properties[name], node, this.r)) pf.omitEmpty = true;
        if (into !== undefined) {
          if (pf === undefined) throw new SchemaGenError(`${where}: no protobuf tag`);
          into[name] = pf;
        }
      }
    };
    add(n, protobuf);
    const schema: UpstreamSchema = { type: 'object' };
    if (Object.keys(properties).length > 0) schema.properties = properties;
    if (required.length > 0) schema.required = required;
    Object.assign(schema, extensionsOf(n.decl.comments));
    const unions = this.unions(n);
    if (unions.length > 0) schema['x-kubernetes-unions'] = unions;
    return { schema, protobuf, inlined, references, hasTypeMeta };
  }

  /** `+union` structs: the discriminator and the JSON → Go names of the other members. */
  private unions(n: TypeNode & { k: 'struct' }): unknown[] {
    const out: unknown[] = [];
    if (commentTags(n.decl.comments).has('union')) {
      let discriminator: string | undefined;
      const fields: Record<string, string> = {};
      for (const m of this.r.fields(n)) {
        const json = jsonTag(m.tag);
        if (json?.skip || json?.inline) continue;
        const name = json?.name ?? m.name;
        if (commentTags(m.comments).has('unionDiscriminator')) discriminator = name;
        else fields[name] = m.name;
      }
      const sorted = Object.fromEntries(
        Object.keys(fields)
          .sort()
          .map((k) => [k, fields[k]]),
      );
      out.push({ ...(discriminator ? { discriminator } : {}), 'fields-to-discriminateBy': sorted });
    }
    for (const m of this.r.fields(n)) {
      if (!jsonTag(m.tag)?.inline) continue;
      const inner = this.r.resolve(this.r.node(m.type, n.scope, n.def));
      if (inner.k === 'struct') out.push(...this.unions(inner));
    }
    return out;
  }
}

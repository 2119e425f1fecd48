import type { Schema } from '../schema/schema.js';

/** A JSON object of an OpenAPI document. */
export type OpenApiObject = { [key: string]: unknown };

/** Which document flavour is being written: Swagger 2.0 or OpenAPI 3.0. */
export type OpenApiStyle = 'v2' | 'v3';

/** Orch's schema extensions and the names clients (kubectl) read them under. */
const EXTENSION_NAMES: Readonly<Record<string, string>> = {
  'x-orch-list-type': 'x-kubernetes-list-type',
  'x-orch-list-map-keys': 'x-kubernetes-list-map-keys',
  'x-orch-map-type': 'x-kubernetes-map-type',
  'x-orch-preserve-unknown-fields': 'x-kubernetes-preserve-unknown-fields',
  'x-orch-embedded-resource': 'x-kubernetes-embedded-resource',
  'x-orch-patch-strategy': 'x-kubernetes-patch-strategy',
  'x-orch-patch-merge-key': 'x-kubernetes-patch-merge-key',
};

/** Keys that describe the field holding a named type, not the type: they stay beside its `$ref`. */
const FIELD_LEVEL_KEYS = new Set(['description', 'default', 'x-orch-patch-strategy', 'x-orch-patch-merge-key']);

/** Plain JSON-schema keywords copied as they are. */
const PLAIN_KEYS = [
  'type',
  'format',
  'enum',
  'default',
  'minimum',
  'maximum',
  'minLength',
  'maxLength',
  'minItems',
  'maxItems',
  'minProperties',
  'maxProperties',
  'pattern',
  'title',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'multipleOf',
  'uniqueItems',
] as const;

/**
 * Collects the definitions of one document: each named type (`x-orch-type-name`) is converted
 * once and referred to by `$ref` (`#/components/schemas/<name>` in v3, `#/definitions/<name>`
 * in v2). Top-level kinds get their `x-kubernetes-group-version-kind` through `extraExtensions`.
 */
export class DefinitionCollector {
  readonly definitions = new Map<string, OpenApiObject>();

  constructor(
    readonly style: OpenApiStyle,
    /** The served name of a type's internal name (the API domain's `definitionName`). */
    private readonly served: (internal: string) => string = (n) => n,
  ) {}

  /** `$ref` target of a definition name. */
  refTo(name: string): string {
    return this.style === 'v3' ? `#/components/schemas/${name}` : `#/definitions/${name}`;
  }

  /**
   * Adds the named type `schema` (and, recursively, every named type it uses) as a definition and
   * returns its name. `extraExtensions` (e.g. the GVK list) are merged into the definition.
   */
  define(schema: Schema, extraExtensions: OpenApiObject = {}): string {
    const internal = schema['x-orch-type-name'];
    if (!internal) throw new Error('define() needs a schema with x-orch-type-name');
    const name = this.served(internal);
    if (this.definitions.has(name)) {
      Object.assign(this.definitions.get(name)!, extraExtensions);
      return name;
    }
    // Reserve the name first so recursive types terminate.
    const def: OpenApiObject = {};
    this.definitions.set(name, def);
    const body = this.convertInline(schema, true);
    const typeDescription = schema['x-orch-type-description'];
    delete body.description;
    delete body.default;
    if (typeDescription) body.description = typeDescription;
    Object.assign(def, sortKeys({ ...body, ...extraExtensions }));
    return name;
  }

  /** The OpenAPI form of a field's schema: a `$ref` for named types, inline otherwise. */
  convert(schema: Schema): OpenApiObject {
    if (!schema['x-orch-type-name']) return this.convertInline(schema, false);
    const overrides = schema['x-orch-field-overrides'] ?? {};
    const name = this.define(withTypeValues(schema, overrides));
    const ref = { $ref: this.refTo(name) };
    const fieldLevel: OpenApiObject = {};
    for (const key of [...FIELD_LEVEL_KEYS, ...Object.keys(overrides)]) {
      const value = (schema as Record<string, unknown>)[key];
      if (value === undefined || value === '') continue;
      if (key === 'default' && this.style === 'v2') continue;
      fieldLevel[EXTENSION_NAMES[key] ?? key] = value;
    }
    if (Object.keys(fieldLevel).length === 0) return ref;
    // v3 forbids siblings of $ref, so kube wraps it in allOf; Swagger 2.0 documents keep siblings.
    return sortKeys(this.style === 'v3' ? { allOf: [ref], ...fieldLevel } : { ...ref, ...fieldLevel });
  }

  private convertInline(schema: Schema, asDefinition: boolean): OpenApiObject {
    const out: OpenApiObject = {};
    for (const key of PLAIN_KEYS) {
      if (schema[key] !== undefined) out[key] = schema[key];
    }
    if (schema['x-orch-published-default'] !== undefined) out.default = schema['x-orch-published-default'];
    // kube prunes every default from its v2 document (handler.PruneDefaults).
    if (this.style === 'v2') delete out.default;
    if (schema.description) out.description = schema.description;
    if (schema.required && schema.required.length > 0) out.required = [...schema.required];
    if (schema.nullable && this.style === 'v3') out.nullable = true;
    if (schema.properties) {
      const props: OpenApiObject = {};
      for (const key of Object.keys(schema.properties).sort()) props[key] = this.convert(schema.properties[key]);
      out.properties = props;
    }
    if (schema.additionalProperties !== undefined) {
      out.additionalProperties =
        typeof schema.additionalProperties === 'boolean'
          ? schema.additionalProperties
          : this.convert(schema.additionalProperties);
    }
    if (schema.items) out.items = this.convert(schema.items);
    // Value validations of structural schemas: OpenAPI v3 only (kube drops them from v2).
    if (this.style === 'v3') {
      for (const key of ['allOf', 'anyOf', 'oneOf'] as const) {
        const list = schema[key];
        if (list && list.length > 0) out[key] = list.map((m) => this.convertInline(m, false));
      }
      if (schema.not) out.not = this.convertInline(schema.not, false);
    }
    const rules = schema['x-orch-validations'];
    if (rules && rules.length > 0) out['x-kubernetes-validations'] = rules.map((r) => sortKeys({ ...r }));
    if (schema['x-orch-int-or-string']) {
      out['x-kubernetes-int-or-string'] = true;
      if (this.style === 'v3') unfoldIntOrString(out);
      // The named type is kube's intstr.IntOrString; an inline node (a custom resource's field)
      // is published in v2 with the marker alone, as kube's CRD conversion leaves it.
      else if (asDefinition) Object.assign(out, { type: 'string', format: 'int-or-string' });
    }
    for (const [orch, kube] of Object.entries(EXTENSION_NAMES)) {
      const value = (schema as Record<string, unknown>)[orch];
      if (value === undefined) continue;
      // The patch markers of a named type's field live beside its $ref, not in the definition.
      if (asDefinition && FIELD_LEVEL_KEYS.has(orch)) continue;
      out[kube] = Array.isArray(value) ? [...value] : value;
    }
    return sortKeys(out);
  }
}

const INT_OR_STRING_ANY_OF = [{ type: 'integer' }, { type: 'string' }];

function isIntOrStringAnyOf(list: unknown): boolean {
  return JSON.stringify(list) === JSON.stringify(INT_OR_STRING_ANY_OF);
}

/**
 * kube's `Unfold` of an int-or-string node for OpenAPI v3: `anyOf: [integer, string]`, or, when
 * the node has an `anyOf` of its own, that choice as the first `allOf` member; nothing when the
 * node already says so in either place.
 */
function unfoldIntOrString(out: OpenApiObject): void {
  const allOf = Array.isArray(out.allOf) ? out.allOf : undefined;
  const first = allOf?.[0] as OpenApiObject | undefined;
  if (isIntOrStringAnyOf(out.anyOf) || (first && isIntOrStringAnyOf(first.anyOf))) return;
  if (out.anyOf === undefined) out.anyOf = structuredClone(INT_OR_STRING_ANY_OF);
  else out.allOf = [{ anyOf: structuredClone(INT_OR_STRING_ANY_OF) }, ...(allOf ?? [])];
}

/** A field's named-type schema with the type's own values back in place of the field's overrides. */
function withTypeValues(schema: Schema, overrides: Record<string, unknown>): Schema {
  if (Object.keys(overrides).length === 0) return schema;
  const out: Record<string, unknown> = { ...schema };
  delete out['x-orch-field-overrides'];
  for (const [key, value] of Object.entries(overrides)) {
    if (value === null) delete out[key];
    else out[key] = value;
  }
  return out as Schema;
}

/** A copy of `obj` with its keys in sorted order (kube's documents are marshalled sorted). */
export function sortKeys<T extends OpenApiObject>(obj: T): T {
  const out: OpenApiObject = {};
  for (const key of Object.keys(obj).sort()) out[key] = obj[key];
  return out as T;
}

import { readFileSync } from 'node:fs';

/**
 * The reduced upstream facts the schema generator reads: OpenAPI v3 component schemas with
 * every `description` removed, and the protobuf field numbers of the same messages. No prose
 * from upstream is kept; a facts file that carries a description is refused.
 */

/** An OpenAPI v3 schema as kube publishes it, without descriptions. */
export interface UpstreamSchema {
  type?: string;
  format?: string;
  properties?: Record<string, UpstreamSchema>;
  additionalProperties?: UpstreamSchema | boolean;
  items?: UpstreamSchema;
  allOf?: UpstreamSchema[];
  $ref?: string;
  required?: string[];
  enum?: unknown[];
  default?: unknown;
  [extension: string]: unknown;
}

/** One protobuf field: its number and label (`optional`, `repeated` or `map`) and proto type. */
export interface ProtoField {
  number: number;
  label: 'optional' | 'repeated' | 'map';
  type: string;
  /**
   * A Go pointer to a scalar (`*int32`, `*string`): a zero value is a set value. Only the Go
   * declarations tell; `generated.proto` marks every proto2 scalar `optional`.
   */
  pointer?: true;
  /**
   * A non-pointer scalar with `omitempty` whose published `default` is its zero value
   * (LocalObjectReference.name, `+default=""`): kube never writes that value, so the default
   * is published but not applied. Only the Go declarations tell.
   */
  omitEmpty?: true;
  /**
   * The field holds a struct that Go embeds with `json:",inline"`: JSON flattens its fields into
   * the parent, protobuf keeps them in this one message field. The value names the embedded
   * definition, whose fields are listed under that name in the facts' `protobuf` section. The
   * key of such a field is its protobuf name, not a JSON property.
   */
  inline?: string;
}

export interface UpstreamFacts {
  /** Where the facts were read (repository, paths, commits); informational. */
  source: Record<string, unknown>;
  /** Component schemas by upstream definition name (`io.k8s.api.rbac.v1.Role`). */
  schemas: Record<string, UpstreamSchema>;
  /** Protobuf fields by upstream definition name, then JSON property name. */
  protobuf: Record<string, Record<string, ProtoField>>;
}

/** Thrown for facts the generator cannot map; the message names the definition and field. */
export class SchemaGenError extends Error {
  override name = 'SchemaGenError';
}

const REF_PREFIX = '#/components/schemas/';

/** The definition a `$ref` (bare or wrapped in a single-element `allOf`) points at, if any. */
export function refOf(schema: UpstreamSchema): string | undefined {
  const ref = schema.$ref ?? (schema.allOf?.length === 1 ? schema.allOf[0].$ref : undefined);
  if (ref === undefined) return undefined;
  if (!ref.startsWith(REF_PREFIX)) throw new SchemaGenError(`unsupported $ref ${ref}`);
  return ref.slice(REF_PREFIX.length);
}

/** Keywords whose value is one schema, or a list of schemas. */
const SUBSCHEMA = ['items', 'additionalProperties', 'not'];
const SUBSCHEMA_LISTS = ['allOf', 'anyOf', 'oneOf'];

/**
 * `s` with `description` removed from it and every schema inside it (`properties` values,
 * `items`, `additionalProperties`, `allOf`...). Property *names* are kept, even `description`;
 * values such as `default` and `enum` are copied as they are.
 */
export function withoutDescriptions(s: UpstreamSchema): UpstreamSchema {
  const out: UpstreamSchema = {};
  for (const [key, value] of Object.entries(s)) {
    if (key === 'description') continue;
    if (key === 'properties' && value !== null && typeof value === 'object') {
      out.properties = Object.fromEntries(
        Object.entries(value as Record<string, UpstreamSchema>).map(([k, v]) => [k, withoutDescriptions(v)]),
      );
    } else if (SUBSCHEMA.includes(key) && value !== null && typeof value === 'object') {
      out[key] = withoutDescriptions(value as UpstreamSchema);
    } else if (SUBSCHEMA_LISTS.includes(key) && Array.isArray(value)) {
      out[key] = value.map((v) => withoutDescriptions(v as UpstreamSchema));
    } else {
      out[key] = value;
    }
  }
  return out;
}

/** Whether `s` or any schema inside it carries a description. */
function hasDescription(s: UpstreamSchema): boolean {
  return JSON.stringify(withoutDescriptions(s)) !== JSON.stringify(s);
}

/** Reads and checks a facts file: the three sections present, no description anywhere. */
export function loadFacts(file: string): UpstreamFacts {
  let facts: UpstreamFacts;
  try {
    facts = JSON.parse(readFileSync(file, 'utf8')) as UpstreamFacts;
  } catch (err) {
    throw new SchemaGenError(`${file}: ${(err as Error).message}`);
  }
  for (const key of ['source', 'schemas', 'protobuf'] as const) {
    if (facts[key] === null || typeof facts[key] !== 'object') {
      throw new SchemaGenError(`${file}: missing section "${key}"`);
    }
  }
  const prose = Object.keys(facts.schemas).filter((name) => hasDescription(facts.schemas[name]));
  if (prose.length > 0) throw new SchemaGenError(`${file}: descriptions are not facts: ${prose.join(', ')}`);
  return facts;
}

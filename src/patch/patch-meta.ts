import type { Schema } from '../apis/schema/schema.js';
import { StrategicMergePatchError } from './errors.js';

/**
 * Where in the schema a strategic merge is: a typed node (a declared field's schema) or an
 * untyped one (below `x-orch-preserve-unknown-fields`), where every map merges and every list is
 * replaced, as JSON merge patch would do.
 */
export interface PatchNode {
  readonly schema?: Schema;
}

/** The patch metadata of one field, as kube reads it from its Go struct tags. */
export interface FieldPatchMeta {
  /** The field's schema (for a list: its items' schema). */
  readonly node: PatchNode;
  /** `merge`, `replace` or `''` (no strategy: maps merge, lists are replaced). */
  readonly strategy: string;
  /** Whether the strategy also lists `retainKeys` (only a client-side diff reads it). */
  readonly retainKeys: boolean;
  /** `x-orch-patch-merge-key`, or `''`. */
  readonly mergeKey: string;
}

export const UNTYPED: PatchNode = {};

const RETAIN_KEYS = 'retainKeys';

/**
 * The metadata of map-valued field `key` of `parent`. Declared properties carry their own
 * markers; keys of a map (`additionalProperties`) take its value schema; keys below
 * `x-orch-preserve-unknown-fields` are untyped. Any other key is not a field of the type, which
 * kube reports as `unable to find api field in struct T for the json field "key"`.
 */
export function lookupStructField(parent: PatchNode, key: string): FieldPatchMeta {
  const schema = parent.schema;
  if (!schema) return { node: UNTYPED, strategy: '', retainKeys: false, mergeKey: '' };
  const field = schema.properties && Object.hasOwn(schema.properties, key) ? schema.properties[key] : undefined;
  if (field) return fieldMeta(field, { schema: field });
  if (typeof schema.additionalProperties === 'object') {
    return { node: { schema: schema.additionalProperties }, strategy: '', retainKeys: false, mergeKey: '' };
  }
  if (schema['x-orch-preserve-unknown-fields']) return { node: UNTYPED, strategy: '', retainKeys: false, mergeKey: '' };
  throw new StrategicMergePatchError(
    'unknown-field',
    `unable to find api field in struct ${goStructName(schema)} for the json field "${key}"`,
  );
}

/** The metadata of list-valued field `key` of `parent`, with the node of its items. */
export function lookupSliceField(parent: PatchNode, key: string): FieldPatchMeta {
  const meta = lookupStructField(parent, key);
  const field = meta.node.schema;
  if (field?.items) return { ...meta, node: { schema: field.items } };
  if (!field || field.type === 'array' || field['x-orch-preserve-unknown-fields']) return { ...meta, node: UNTYPED };
  throw new StrategicMergePatchError('bad-schema', 'expected slice or array type, but got: struct');
}

/** The Go kind kube names a list's element type by in its messages. */
export function elementKindName(node: PatchNode): string {
  const schema = node.schema;
  if (!schema) return 'interface';
  if (schema.type === 'object') return schema.properties ? 'struct' : 'map';
  return schema.type ?? 'interface';
}

function fieldMeta(field: Schema, node: PatchNode): FieldPatchMeta {
  const raw = field['x-orch-patch-strategy'];
  const strategies = raw === undefined ? [] : raw.split(',');
  const mergeKey = field['x-orch-patch-merge-key'] ?? '';
  if (strategies.length === 0) return { node, strategy: '', retainKeys: false, mergeKey };
  if (strategies.length === 1) {
    const only = strategies[0];
    return only === RETAIN_KEYS
      ? { node, strategy: '', retainKeys: true, mergeKey }
      : { node, strategy: only, retainKeys: false, mergeKey };
  }
  if (strategies.length === 2 && strategies.includes(RETAIN_KEYS)) {
    const other = strategies[0] === RETAIN_KEYS ? strategies[1] : strategies[0];
    return { node, strategy: other, retainKeys: true, mergeKey };
  }
  throw new StrategicMergePatchError('bad-schema', `unexpected patch strategy: [${strategies.join(' ')}]`);
}

/** The Go struct name kube prints: the last segment of the type's OpenAPI name. */
function goStructName(schema: Schema): string {
  const name = schema['x-orch-type-name'] ?? '';
  return name.slice(name.lastIndexOf('.') + 1);
}

/**
 * Whether PATCH with `application/strategic-merge-patch+json` applies to objects of `schema`.
 * kube offers it for compiled-in types only (their Go structs carry the patch tags) and answers
 * 415 for custom resources. Here that is a root schema that is a named compiled-in type
 * (`x-orch-type-name`) or any patch metadata outside the root's `metadata` (which custom
 * resources may share with built-in types). Custom-resource schemas carry neither.
 */
export function schemaSupportsStrategicMerge(schema: Schema): boolean {
  if (schema['x-orch-type-name']) return true;
  const { metadata: _metadata, ...rest } = schema.properties ?? {};
  return hasPatchMetadata({ ...schema, properties: rest });
}

function hasPatchMetadata(schema: Schema, visiting: Set<Schema> = new Set()): boolean {
  // Schemas may be recursive (a type holding lists of itself).
  if (visiting.has(schema)) return false;
  visiting.add(schema);
  if (schema['x-orch-patch-strategy'] !== undefined || schema['x-orch-patch-merge-key'] !== undefined) return true;
  const children = [
    ...(schema.items ? [schema.items] : []),
    ...(typeof schema.additionalProperties === 'object' ? [schema.additionalProperties] : []),
    ...Object.values(schema.properties ?? {}),
  ];
  return children.some((child) => hasPatchMetadata(child, visiting));
}

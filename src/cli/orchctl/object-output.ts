/**
 * kubectl's printers for objects read from the server: `-o yaml|json` (several objects as a
 * `List` with an empty resourceVersion, keys sorted as for unstructured objects) and `-o name`.
 */
import { stringify } from 'yaml';
import type { ApiObject } from '../../apis/object.js';
import { isPlainObject } from '../../apis/schema/json-value.js';
import { kindName } from './resource-catalog.js';

function sortKeys(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(sortKeys);
  if (!isPlainObject(v)) return v;
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(v).sort()) out[k] = sortKeys(v[k]);
  return out;
}

/** `objects` as kubectl prints a list of several. */
export function listOf(objects: readonly ApiObject[]): Record<string, unknown> {
  return { apiVersion: 'v1', items: [...objects], kind: 'List', metadata: { resourceVersion: '' } };
}

/** `value` as `-o yaml` or `-o json` prints it, ending with a newline. */
export function printObject(value: unknown, format: 'yaml' | 'json'): string {
  const sorted = sortKeys(value);
  if (format === 'json') return `${JSON.stringify(sorted, null, 4)}\n`;
  return stringify(sorted, { version: '1.1', lineWidth: 0, indentSeq: false, aliasDuplicateObjects: false });
}

/** `configmap/a` | `deployment.apps/web`: `-o name` of an object. */
export function objectName(obj: ApiObject, group: string): string {
  return `${kindName(String(obj.kind ?? ''), group)}/${obj.metadata?.name ?? ''}`;
}

/** `obj` without `metadata.managedFields`, as kubectl prints objects unless `--show-managed-fields`. */
export function withoutManagedFields(obj: ApiObject): ApiObject {
  if (!obj.metadata || !('managedFields' in obj.metadata)) return obj;
  const { managedFields: _, ...metadata } = obj.metadata as Record<string, unknown>;
  return { ...obj, metadata } as ApiObject;
}

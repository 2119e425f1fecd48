import type { ApiObject } from '../apis/object.js';
import { isObject } from './typed/list-items.js';

/** A deep copy of a decoded JSON value (absent keys stay absent). */
export function cloneValue<T>(v: T): T {
  if (v === null || typeof v !== 'object') return v;
  if (Array.isArray(v)) {
    const list: unknown[] = new Array(v.length);
    for (let i = 0; i < v.length; i++) list[i] = cloneValue(v[i]);
    return list as T;
  }
  const out: Record<string, unknown> = {};
  const keys = Object.keys(v);
  for (let i = 0; i < keys.length; i++) {
    const k = keys[i]!;
    const x = (v as Record<string, unknown>)[k];
    if (x === undefined) continue;
    // A key named `__proto__` (JSON.parse makes it an own property) would set the copy's
    // prototype if assigned: it is defined instead, so the copy holds what the original holds.
    if (k === '__proto__')
      Object.defineProperty(out, k, { value: cloneValue(x), enumerable: true, writable: true, configurable: true });
    else out[k] = cloneValue(x);
  }
  return out as T;
}

/** The object without `metadata.managedFields`; shares everything else with `obj`. */
export function stripManagedFields(obj: ApiObject): ApiObject {
  if (!isObject(obj.metadata) || !('managedFields' in obj.metadata)) return obj;
  const { managedFields: _, ...metadata } = obj.metadata;
  return { ...obj, metadata };
}

const ENTRY_FIELDS = ['manager', 'operation', 'apiVersion', 'time', 'fieldsType', 'fieldsV1', 'subresource'];

/**
 * kube's reset request: `metadata.managedFields` is a list of one empty entry (`[{}]`), or, when
 * `emptyListResets`, an empty list.
 */
export function isResetManagedFields(value: unknown, emptyListResets: boolean): boolean {
  if (!Array.isArray(value)) return false;
  if (value.length === 0) return emptyListResets;
  if (value.length !== 1) return false;
  const e = value[0];
  if (e === null) return true;
  if (!isObject(e)) return false;
  return ENTRY_FIELDS.every((k) => e[k] === undefined || e[k] === null || e[k] === '');
}

/** Go's `GroupVersionKind.String()` of the object's type, e.g. `apps/v1, Kind=Deployment`. */
export function gvkString(obj: { apiVersion?: unknown; kind?: unknown }): string {
  const apiVersion = typeof obj.apiVersion === 'string' ? obj.apiVersion : '';
  const kind = typeof obj.kind === 'string' ? obj.kind : '';
  const slashes = apiVersion.split('/').length - 1;
  if (apiVersion === '' || apiVersion === '/') return `/, Kind=${kind}`;
  if (slashes === 0) return `/${apiVersion}, Kind=${kind}`;
  if (slashes === 1) return `${apiVersion}, Kind=${kind}`;
  return '/, Kind=';
}

/** `namespace/name` as kube names an object in field-manager errors. */
export function objectRef(obj: ApiObject): string {
  const m = isObject(obj.metadata) ? obj.metadata : {};
  const str = (v: unknown): string => (typeof v === 'string' ? v : '');
  return `${str(m.namespace)}/${str(m.name)}`;
}

import { type FieldError, fieldErrors } from '../meta/field-error.js';
import { isDNS1035Label, nameIsPathSegment } from '../meta/name-validation.js';
import { validateObjectMeta } from '../meta/object-meta-validation.js';
import type { ObjectMeta } from '../object.js';
import { childPath, indexPath, keyPath } from '../schema/field-path.js';
import { isPlainObject } from '../schema/json-value.js';
import type { Schema } from '../schema/schema.js';

/**
 * kube's checks of objects a custom resource embeds (`x-kubernetes-embedded-resource`, apiextensions
 * `objectmeta.Validate`): each must have a non-empty `apiVersion` (a valid group version) and a
 * `kind`, and its `metadata` must decode as ObjectMeta and pass ObjectMeta validation (names as
 * path segments; a missing name is allowed). With `isResourceRoot` the value itself is such an
 * object. Pure.
 */
export function validateEmbeddedResources(
  path: string,
  value: unknown,
  schema: Schema | undefined,
  isResourceRoot = false,
): FieldError[] {
  const s = isResourceRoot ? { ...(schema ?? {}), 'x-orch-embedded-resource': true } : schema;
  const errs: FieldError[] = [];
  walk(path, value, s, errs);
  return errs;
}

function walk(path: string, value: unknown, schema: Schema | undefined, errs: FieldError[]): void {
  if (!schema) return;
  if (Array.isArray(value)) {
    value.forEach((item, i) => {
      walk(indexPath(path, i), item, schema.items, errs);
    });
    return;
  }
  if (!isPlainObject(value)) return;
  if (schema['x-orch-embedded-resource']) errs.push(...embeddedErrors(path, value));
  const extra = typeof schema.additionalProperties === 'object' ? schema.additionalProperties : undefined;
  for (const [k, v] of Object.entries(value)) {
    const prop = schema.properties?.[k];
    if (prop) walk(childPath(path, k), v, prop, errs);
    else if (extra) walk(keyPath(path, k), v, extra, errs);
  }
}

function jsonKind(v: unknown): string {
  if (Array.isArray(v)) return 'array';
  if (v === null) return 'null';
  if (typeof v === 'object') return 'object';
  if (typeof v === 'number' || typeof v === 'bigint') return 'number';
  return typeof v === 'boolean' ? 'bool' : 'string';
}

const STRING_FIELDS = ['name', 'generateName', 'namespace', 'selfLink', 'uid', 'resourceVersion'];
const STRING_MAP_FIELDS = ['labels', 'annotations'];

/** Go's error decoding a value into `metav1.ObjectMeta`, or undefined. */
export function objectMetaDecodeError(meta: unknown): string | undefined {
  if (!isPlainObject(meta)) {
    return meta === null ? undefined : `json: cannot unmarshal ${jsonKind(meta)} into Go value of type v1.ObjectMeta`;
  }
  for (const f of STRING_FIELDS) {
    const v = meta[f];
    if (v !== undefined && v !== null && typeof v !== 'string') {
      return `json: cannot unmarshal ${jsonKind(v)} into Go struct field ObjectMeta.${f} of type string`;
    }
  }
  for (const f of STRING_MAP_FIELDS) {
    const v = meta[f];
    if (v === undefined || v === null) continue;
    if (!isPlainObject(v)) {
      return `json: cannot unmarshal ${jsonKind(v)} into Go struct field ObjectMeta.${f} of type map[string]string`;
    }
    for (const x of Object.values(v)) {
      if (x !== null && typeof x !== 'string') {
        return `json: cannot unmarshal ${jsonKind(x)} into Go struct field ObjectMeta.${f} of type string`;
      }
    }
  }
  const finalizers = meta.finalizers;
  if (finalizers !== undefined && finalizers !== null) {
    if (!Array.isArray(finalizers)) {
      return `json: cannot unmarshal ${jsonKind(finalizers)} into Go struct field ObjectMeta.finalizers of type []string`;
    }
    const bad = finalizers.find((f) => f !== null && typeof f !== 'string');
    if (bad !== undefined)
      return `json: cannot unmarshal ${jsonKind(bad)} into Go struct field ObjectMeta.finalizers of type string`;
  }
  return undefined;
}

function embeddedErrors(path: string, x: Record<string, unknown>): FieldError[] {
  const errs: FieldError[] = [];
  const apiVersionPath = childPath(path, 'apiVersion');
  const kindPath = childPath(path, 'kind');
  if (!Object.hasOwn(x, 'apiVersion')) errs.push(fieldErrors.required(apiVersionPath, 'must not be empty'));
  if (!Object.hasOwn(x, 'kind')) errs.push(fieldErrors.required(kindPath, 'must not be empty'));
  for (const key of Object.keys(x).sort()) {
    const v = x[key];
    if (key === 'apiVersion') {
      if (typeof v !== 'string') errs.push(fieldErrors.invalid(apiVersionPath, v, 'must be a string'));
      else if (v === '') errs.push(fieldErrors.invalid(apiVersionPath, v, 'must not be empty'));
      else if (v.split('/').length > 2) {
        errs.push(fieldErrors.invalid(apiVersionPath, v, `unexpected GroupVersion string: ${v}`));
      }
    } else if (key === 'kind') {
      if (typeof v !== 'string') errs.push(fieldErrors.invalid(kindPath, v, 'must be a string'));
      else if (v === '') errs.push(fieldErrors.invalid(kindPath, v, 'must not be empty'));
      else {
        const msgs = isDNS1035Label(v.toLowerCase());
        if (msgs.length > 0) {
          errs.push(
            fieldErrors.invalid(kindPath, v, `may have mixed case, but should otherwise match: ${msgs.join(',')}`),
          );
        }
      }
    } else if (key === 'metadata') {
      const decodeError = objectMetaDecodeError(v);
      if (decodeError) {
        errs.push(fieldErrors.invalid(childPath(path, 'metadata'), v, decodeError));
      } else if (isPlainObject(v)) {
        const meta = { ...(v as ObjectMeta) };
        if (!meta.name) meta.name = 'fakename';
        errs.push(
          ...validateObjectMeta(meta, {
            namespaced: typeof meta.namespace === 'string' && meta.namespace !== '',
            nameValidator: nameIsPathSegment,
            path: childPath(path, 'metadata'),
          }),
        );
      }
    }
  }
  return errs;
}

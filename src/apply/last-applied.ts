import type { ApiObject } from '../apis/object.js';
import { parseJson } from '../util/json-text.js';
import type { FieldSet } from './fieldpath/field-set.js';
import { goJsonValue } from './fieldpath/go-text.js';
import { compareTyped } from './typed/compare.js';
import { isObject } from './typed/list-items.js';
import { fieldSetOf } from './typed/to-field-set.js';
import type { TypeNode } from './typed/type-node.js';
import { validateTyped } from './typed/validate.js';

/**
 * kubectl's client-side apply annotation, which kube-apiserver consults and keeps current for
 * the `kubectl` field manager so that objects move from client-side to server-side apply
 * without conflicts.
 */
export const LAST_APPLIED_ANNOTATION = 'kubectl.kubernetes.io/last-applied-configuration';

/** The field manager name `kubectl apply --server-side` uses. */
export const KUBECTL_MANAGER = 'kubectl';

/** kube's limit on the total size of an object's annotations (keys and values, bytes). */
const TOTAL_ANNOTATION_SIZE_LIMIT = 256 * 1024;

function annotationsOf(obj: ApiObject): Record<string, unknown> | undefined {
  const a = obj.metadata?.annotations;
  return isObject(a) ? a : undefined;
}

/** Whether the object carries a non-empty last-applied annotation. */
export function hasLastApplied(obj: ApiObject): boolean {
  const v = annotationsOf(obj)?.[LAST_APPLIED_ANNOTATION];
  return typeof v === 'string' && v !== '';
}

/**
 * The annotation value for an applied configuration: the configuration without the annotation
 * itself, as Go's JSON encoder writes it (keys sorted, HTML-safe escaping, trailing newline).
 */
export function buildLastApplied(config: ApiObject): string {
  const copy: Record<string, unknown> = { ...config };
  const annotations = annotationsOf(config);
  if (annotations) {
    const rest = { ...annotations };
    delete rest[LAST_APPLIED_ANNOTATION];
    copy.metadata = { ...config.metadata, annotations: rest };
  }
  return `${goJsonValue(copy, true)}\n`;
}

/**
 * Sets the annotation on `obj` (mutating its metadata), unless the object's annotations would
 * then exceed kube's size limit, in which case the annotation is removed instead.
 */
export function setLastApplied(obj: ApiObject, value: string): void {
  const annotations: Record<string, unknown> = { ...(annotationsOf(obj) ?? {}) };
  annotations[LAST_APPLIED_ANNOTATION] = value;
  let total = 0;
  for (const [k, v] of Object.entries(annotations)) {
    total += Buffer.byteLength(k, 'utf8') + (typeof v === 'string' ? Buffer.byteLength(v, 'utf8') : 0);
  }
  if (total > TOTAL_ANNOTATION_SIZE_LIMIT) delete annotations[LAST_APPLIED_ANNOTATION];
  obj.metadata = { ...obj.metadata, annotations: annotations as Record<string, string> };
}

/**
 * The fields a conflicting `kubectl` apply may take over because kubectl's client-side apply
 * already declared them with the live value: the last-applied configuration's fields minus those
 * it no longer agrees on with the live object. Undefined when there is no usable annotation.
 */
export function allowedConflictsFromLastApplied(
  live: ApiObject,
  ctx: { readonly type: TypeNode; readonly apiVersion: string },
): FieldSet | undefined {
  const text = annotationsOf(live)?.[LAST_APPLIED_ANNOTATION];
  if (typeof text !== 'string' || text === '') return undefined;
  let lastApplied: unknown;
  try {
    lastApplied = parseJson(text);
  } catch {
    return undefined;
  }
  if (!isObject(lastApplied) || lastApplied.apiVersion !== ctx.apiVersion) return undefined;
  if (validateTyped(lastApplied, ctx.type).length > 0) return undefined;
  const cmp = compareTyped(lastApplied, live, ctx.type);
  return fieldSetOf(lastApplied, ctx.type).difference(cmp.modified).difference(cmp.added).difference(cmp.removed);
}

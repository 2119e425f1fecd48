import { type FieldError, fieldErrors } from '../apis/meta/field-error.js';
import { apiErrors } from '../apis/meta/status.js';
import type { ApiObject } from '../apis/object.js';
import type { SubresourceDefinition, SubresourceKind } from '../apis/resource-definition.js';
import { isPlainObject } from '../apis/schema/json-value.js';
import type { Schema } from '../apis/schema/schema.js';
import { CREATED_DESCRIPTION } from '../apis/table/column-helpers.js';
import { declarativeTableColumns } from '../apis/table/declarative-columns.js';
import type { TableColumns } from '../apis/table/table-types.js';

/** A CRD version's `subresources.scale`: where replicas and the selector live in its objects. */
export interface ScalePaths {
  readonly specReplicasPath: string;
  readonly statusReplicasPath: string;
  readonly labelSelectorPath?: string;
}

const MAX_INT32 = 2147483647;

function split(path: string): string[] {
  return path.replace(/^\./, '').split('.');
}

/** What kube's `unstructured.NestedInt64`/`NestedString` find at a path. */
type Nested = { found: false } | { found: true; value: unknown } | { error: string };

function nested(obj: unknown, path: string): Nested {
  let cur = obj;
  const steps = split(path);
  for (let i = 0; i < steps.length; i++) {
    if (!isPlainObject(cur)) {
      return {
        error: `.${steps.slice(0, i).join('.')} accessor error: ${goV(cur)} is of the type ${goType(cur)}, expected map[string]interface{}`,
      };
    }
    if (!Object.hasOwn(cur, steps[i])) return { found: false };
    cur = cur[steps[i]];
  }
  return { found: true, value: cur };
}

/** Go's `%v` of a decoded JSON value. */
function goV(v: unknown): string {
  if (v === null || v === undefined) return '<nil>';
  if (Array.isArray(v)) return `[${v.map(goV).join(' ')}]`;
  if (isPlainObject(v)) {
    return `map[${Object.keys(v)
      .sort()
      .map((k) => `${k}:${goV(v[k])}`)
      .join(' ')}]`;
  }
  return String(v);
}

function goType(v: unknown): string {
  if (Array.isArray(v)) return '[]interface {}';
  if (isPlainObject(v)) return 'map[string]interface {}';
  if (typeof v === 'number') return Number.isInteger(v) ? 'int64' : 'float64';
  if (typeof v === 'string') return 'string';
  if (typeof v === 'boolean') return 'bool';
  return '<nil>';
}

/** An integer at a path (0 when absent), or kube's accessor error. */
function int64At(obj: unknown, path: string): { value: number; found: boolean } | { error: string } {
  const r = nested(obj, path);
  if ('error' in r) return r;
  if (!r.found) return { value: 0, found: false };
  if (typeof r.value === 'number' && Number.isInteger(r.value)) return { value: r.value, found: true };
  return {
    error: `.${split(path).join('.')} accessor error: ${goV(r.value)} is of the type ${goType(r.value)}, expected int64`,
  };
}

function replicasErrors(obj: ApiObject, path: string): FieldError[] {
  const r = int64At(obj, path);
  if ('error' in r) return [fieldErrors.invalid(path, 0, r.error)];
  if (r.value < 0) return [fieldErrors.invalid(path, r.value, 'should be a non-negative integer')];
  if (r.value > MAX_INT32) return [fieldErrors.invalid(path, r.value, `should be less than or equal to ${MAX_INT32}`)];
  return [];
}

/** kube's `ValidateScaleSpec`: the spec replicas are a non-negative int32 (path as the CRD writes it). */
export function scaleSpecErrors(obj: ApiObject, paths: ScalePaths): FieldError[] {
  return replicasErrors(obj, paths.specReplicasPath);
}

/** kube's `ValidateScaleStatus`: the status replicas likewise, and the selector a string. */
export function scaleStatusErrors(obj: ApiObject, paths: ScalePaths): FieldError[] {
  const errs = replicasErrors(obj, paths.statusReplicasPath);
  if (paths.labelSelectorPath) {
    const r = nested(obj, paths.labelSelectorPath);
    if ('error' in r) errs.push(fieldErrors.invalid(paths.labelSelectorPath, '', r.error));
    else if (r.found && typeof r.value !== 'string') {
      errs.push(
        fieldErrors.invalid(
          paths.labelSelectorPath,
          '',
          `.${split(paths.labelSelectorPath).join('.')} accessor error: ${goV(r.value)} is of the type ${goType(r.value)}, expected string`,
        ),
      );
    }
  }
  return errs;
}

/** The `autoscaling/v1` Scale of a custom resource (kube's `scaleFromCustomResource`). */
function scaleOf(cr: ApiObject, paths: ScalePaths): ApiObject {
  const spec = int64At(cr, paths.specReplicasPath);
  const status = int64At(cr, paths.statusReplicasPath);
  if ('error' in spec) throw apiErrors.badRequest(spec.error);
  if ('error' in status) throw apiErrors.badRequest(status.error);
  const m = cr.metadata;
  const metadata: ApiObject['metadata'] = { name: m.name };
  if (m.namespace) metadata.namespace = m.namespace;
  if (m.uid) metadata.uid = m.uid;
  if (m.resourceVersion) metadata.resourceVersion = m.resourceVersion;
  if (m.creationTimestamp) metadata.creationTimestamp = m.creationTimestamp;
  const selector = paths.labelSelectorPath ? nested(cr, paths.labelSelectorPath) : { found: false as const };
  const scaleStatus: Record<string, unknown> = { replicas: status.value };
  if ('found' in selector && selector.found && typeof selector.value === 'string' && selector.value !== '') {
    scaleStatus.selector = selector.value;
  }
  return {
    apiVersion: 'autoscaling/v1',
    kind: 'Scale',
    metadata,
    spec: spec.value === 0 ? {} : { replicas: spec.value },
    status: scaleStatus,
  };
}

/** Writes `value` at a path of `obj`, creating the objects on the way (kube's `SetNestedField`). */
function setAt(obj: Record<string, unknown>, path: string, value: unknown): void {
  const steps = split(path);
  let cur = obj;
  for (const step of steps.slice(0, -1)) {
    if (!isPlainObject(cur[step])) cur[step] = {};
    cur = cur[step] as Record<string, unknown>;
  }
  cur[steps[steps.length - 1]] = value;
}

/**
 * The Table of a custom resource's Scale, kube's custom resource table convertor over the
 * columns `getScaleColumnsForVersion` gives it: `Desired` and `Available` as JSONPaths into the
 * Scale (a Scale whose `spec.replicas` is 0 omits it, so its cell is empty), `Age` a `date`.
 */
const SCALE_COLUMNS: TableColumns = declarativeTableColumns([
  { name: 'Desired', type: 'integer', description: 'Number of desired replicas', jsonPath: '.spec.replicas' },
  { name: 'Available', type: 'integer', description: 'Number of actual replicas', jsonPath: '.status.replicas' },
  { name: 'Age', type: 'date', description: CREATED_DESCRIPTION, jsonPath: '.metadata.creationTimestamp' },
]);

/**
 * The `scale` sub-resource of a custom resource: reads and writes an `autoscaling/v1` Scale whose
 * `spec.replicas` lives at `specReplicasPath`, `status.replicas` at `statusReplicasPath` and
 * `status.selector` at `labelSelectorPath`. A write changes only the spec replicas; the custom
 * resource's own validation then checks them.
 */
export function customResourceScale(paths: ScalePaths, scaleSchema: Schema): SubresourceDefinition {
  const kind: SubresourceKind = {
    group: 'autoscaling',
    version: 'v1',
    kind: 'Scale',
    schema: scaleSchema,
    tableColumns: SCALE_COLUMNS,
    toSubresource: (cr) => scaleOf(cr, paths),
    toParent(cr, scale) {
      const spec = isPlainObject(scale.spec) ? scale.spec : {};
      const replicas = typeof spec.replicas === 'number' ? Math.trunc(spec.replicas) : 0;
      setAt(cr as unknown as Record<string, unknown>, paths.specReplicasPath, replicas);
      return cr;
    },
  };
  return { name: 'scale', verbs: ['get', 'patch', 'update'], kind };
}

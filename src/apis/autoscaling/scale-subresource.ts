/**
 * The `scale` sub-resource of the replica-managing kinds (Deployment, ReplicaSet, StatefulSet,
 * ReplicationController): an `autoscaling/v1` Scale read from and written to the parent's
 * `spec.replicas`, as kube's `scaleFromDeployment` & co build it. `status.selector` is the
 * parent's pod selector as a label selector string. Writes are validated as kube's
 * `ValidateScale` (422 `Scale.autoscaling`), and a `metadata.uid` that is not the parent's is a
 * 409 precondition failure.
 */
import { type FieldError, fieldErrors } from '../meta/field-error.js';
import { nameIsDNSSubdomain } from '../meta/name-validation.js';
import { validateObjectMeta } from '../meta/object-meta-validation.js';
import { apiErrors } from '../meta/status.js';
import type { ApiObject } from '../object.js';
import type { SubresourceDefinition, SubresourceKind } from '../resource-definition.js';
import { isPlainObject } from '../schema/json-value.js';
import type { Schema } from '../schema/schema.js';
import { scaleTableColumns } from './scale-columns.js';

export interface ScaleParent {
  /** The parent's group and resource, for the conflict message (`deployments.apps`). */
  readonly group: string;
  readonly resource: string;
  /** The parent's pod selector as kube prints it (`status.selector`); `''` when there is none. */
  selector(parent: ApiObject): string;
}

function replicasOf(v: unknown): number {
  return typeof v === 'number' ? v : 0;
}

/** The Scale of a parent object. */
export function scaleOf(parent: ApiObject, selector: string): ApiObject {
  const m = parent.metadata;
  const spec = isPlainObject(parent.spec) ? parent.spec : {};
  const status = isPlainObject(parent.status) ? parent.status : {};
  const metadata: ApiObject['metadata'] = { name: m.name, namespace: m.namespace, uid: m.uid };
  if (m.resourceVersion) metadata.resourceVersion = m.resourceVersion;
  if (m.creationTimestamp) metadata.creationTimestamp = m.creationTimestamp;
  const replicas = replicasOf(spec.replicas);
  const scaleStatus: Record<string, unknown> = { replicas: replicasOf(status.replicas) };
  if (selector) scaleStatus.selector = selector;
  return {
    apiVersion: 'autoscaling/v1',
    kind: 'Scale',
    metadata,
    spec: replicas === 0 ? {} : { replicas },
    status: scaleStatus,
  };
}

/** kube's `ValidateScale`: metadata (a DNS subdomain name) and `spec.replicas` ≥ 0. */
export function validateScale(scale: ApiObject): FieldError[] {
  const errs = validateObjectMeta(scale.metadata ?? {}, { namespaced: true, nameValidator: nameIsDNSSubdomain });
  const spec = isPlainObject(scale.spec) ? scale.spec : {};
  const replicas = replicasOf(spec.replicas);
  if (replicas < 0) errs.push(fieldErrors.invalid('spec.replicas', replicas, 'must be greater than or equal to 0'));
  return errs;
}

/** The `scale` sub-resource kind of a parent, with `autoscaling/v1` Scale's schema. */
export function scaleKind(scaleSchema: Schema, parent: ScaleParent): SubresourceKind {
  return {
    group: 'autoscaling',
    version: 'v1',
    kind: 'Scale',
    schema: scaleSchema,
    tableColumns: scaleTableColumns(),
    toSubresource: (obj) => scaleOf(obj, parent.selector(obj)),
    toParent(obj, sub) {
      const meta = isPlainObject(sub.metadata) ? sub.metadata : {};
      const scale = { ...sub, metadata: { ...meta, namespace: meta.namespace || obj.metadata.namespace } } as ApiObject;
      const errs = validateScale(scale);
      if (errs.length > 0) return errs;
      const uid = scale.metadata.uid;
      if (uid && uid !== obj.metadata.uid) {
        throw apiErrors.conflict(
          { group: parent.group, resource: `${parent.resource}/scale` },
          obj.metadata.name ?? '',
          `Precondition failed: UID in precondition: ${uid}, UID in object meta: ${obj.metadata.uid ?? ''}`,
        );
      }
      const spec = isPlainObject(obj.spec) ? obj.spec : {};
      obj.spec = { ...spec, replicas: replicasOf(isPlainObject(scale.spec) ? scale.spec.replicas : undefined) };
      return obj;
    },
  };
}

/** The `scale` sub-resource definition (get, patch, update), owning `spec.replicas`. */
export function scaleSubresource(scaleSchema: Schema, parent: ScaleParent): SubresourceDefinition {
  return { name: 'scale', verbs: ['get', 'patch', 'update'], kind: scaleKind(scaleSchema, parent) };
}

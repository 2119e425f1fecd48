/**
 * kube's printer columns of Node, PersistentVolume, PersistentVolumeClaim and ResourceQuota
 * (`pkg/printers/internalversion/printers.go`). LimitRange has no printer in kube: it gets the
 * default `Name`/`Created At` table.
 */
import type { ApiObject } from '../object.js';
import type { Schema } from '../schema/schema.js';
import { AGE_COLUMN, column, NAME_COLUMN, objectName, stringAt, valueAt } from '../table/column-helpers.js';
import { translateTimestampSince } from '../table/human-duration.js';
import type { TableColumns } from '../table/table-types.js';
import { fieldDoc } from './column-docs.js';
import { quantityString } from './resource-validation.js';

type Json = Record<string, unknown>;

function age(obj: ApiObject, now: Date): string {
  return translateTimestampSince(valueAt(obj, 'metadata', 'creationTimestamp'), now);
}

function listAt(obj: unknown, ...path: string[]): Json[] {
  const v = valueAt(obj, ...path);
  return Array.isArray(v) ? (v.filter((x) => x !== null && typeof x === 'object') as Json[]) : [];
}

const NODE_ROLE_PREFIX = 'node-role.kubernetes.io/';
const NODE_ROLE_LABEL = 'kubernetes.io/role';

/** kube's `findNodeRoles`: `node-role.kubernetes.io/<role>` keys and the `kubernetes.io/role` value, sorted. */
export function nodeRoles(labels: Record<string, string> | undefined): string[] {
  const roles = new Set<string>();
  for (const [k, v] of Object.entries(labels ?? {})) {
    if (k.startsWith(NODE_ROLE_PREFIX)) {
      const role = k.slice(NODE_ROLE_PREFIX.length);
      if (role) roles.add(role);
    } else if (k === NODE_ROLE_LABEL && v) {
      roles.add(v);
    }
  }
  return [...roles].sort();
}

/** kube's node status: `Ready`/`NotReady` (else `Unknown`), plus `SchedulingDisabled` when cordoned. */
export function nodeStatus(node: ApiObject): string {
  const ready = listAt(node, 'status', 'conditions')
    .filter((c) => c.type === 'Ready')
    .pop();
  const status = ready ? [ready.status === 'True' ? 'Ready' : 'NotReady'] : ['Unknown'];
  if (valueAt(node, 'spec', 'unschedulable') === true) status.push('SchedulingDisabled');
  return status.join(',');
}

function nodeAddress(node: ApiObject, type: string): string {
  const a = listAt(node, 'status', 'addresses').find((x) => x.type === type);
  return typeof a?.address === 'string' ? a.address : '<none>';
}

/**
 * Node: `Name`, `Status`, `Roles`, `Age`, `Version`, and the wide `Internal-IP`, `External-IP`,
 * `OS-Image`, `Kernel-Version`, `Container-Runtime`.
 */
export function nodeTableColumns(schema: Schema): TableColumns {
  const info = (...p: string[]) => fieldDoc(schema, ['status', 'nodeInfo', ...p]);
  return Object.freeze({
    columnDefinitions: Object.freeze([
      NAME_COLUMN,
      column('Status', 'string', 'Whether the node is ready, plus scheduling and other flags.'),
      column('Roles', 'string', 'The roles named by the node labels.'),
      AGE_COLUMN,
      column('Version', 'string', info('kubeletVersion')),
      column('Internal-IP', 'string', fieldDoc(schema, ['status', 'addresses']), { priority: 1 }),
      column('External-IP', 'string', fieldDoc(schema, ['status', 'addresses']), { priority: 1 }),
      column('OS-Image', 'string', info('osImage'), { priority: 1 }),
      column('Kernel-Version', 'string', info('kernelVersion'), { priority: 1 }),
      column('Container-Runtime', 'string', info('containerRuntimeVersion'), { priority: 1 }),
    ]),
    cells: (obj: ApiObject, now: Date) => {
      const ni = (f: string) => stringAt(obj, 'status', 'nodeInfo', f) || '<unknown>';
      const roles = nodeRoles(obj.metadata.labels).join(',');
      return [
        objectName(obj),
        nodeStatus(obj),
        roles || '<none>',
        age(obj, now),
        stringAt(obj, 'status', 'nodeInfo', 'kubeletVersion'),
        nodeAddress(obj, 'InternalIP'),
        nodeAddress(obj, 'ExternalIP'),
        ni('osImage'),
        ni('kernelVersion'),
        ni('containerRuntimeVersion'),
      ];
    },
  });
}

/** kube's `GetAccessModesAsString`: `RWO`, `ROX`, `RWX`, `RWOP`, in that order, without repeats. */
export function accessModesString(modes: unknown): string {
  const list = Array.isArray(modes) ? modes : [];
  const out: string[] = [];
  for (const [mode, short] of [
    ['ReadWriteOnce', 'RWO'],
    ['ReadOnlyMany', 'ROX'],
    ['ReadWriteMany', 'RWX'],
    ['ReadWriteOncePod', 'RWOP'],
  ]) {
    if (list.includes(mode)) out.push(short);
  }
  return out.join(',');
}

/** The beta storage-class annotation, which wins over `spec.storageClassName` in kube's printers. */
export const BETA_STORAGE_CLASS_ANNOTATION = 'volume.beta.kubernetes.io/storage-class';

function storageClass(obj: ApiObject): string {
  const annotated = obj.metadata.annotations?.[BETA_STORAGE_CLASS_ANNOTATION];
  return annotated ?? stringAt(obj, 'spec', 'storageClassName');
}

function storageOf(list: unknown): string {
  const v = valueAt(list, 'storage');
  return v === undefined ? '0' : quantityString(v);
}

function phaseOrTerminating(obj: ApiObject): string {
  return obj.metadata.deletionTimestamp ? 'Terminating' : stringAt(obj, 'status', 'phase');
}

/**
 * PersistentVolume: `Name`, `Capacity`, `Access Modes`, `Reclaim Policy`, `Status`, `Claim`,
 * `StorageClass`, `VolumeAttributesClass`, `Reason`, `Age`, and the wide `VolumeMode`.
 */
export function persistentVolumeTableColumns(schema: Schema): TableColumns {
  const spec = (f: string) => fieldDoc(schema, ['spec', f], 'pv');
  return Object.freeze({
    columnDefinitions: Object.freeze([
      NAME_COLUMN,
      column('Capacity', 'string', spec('capacity')),
      column('Access Modes', 'string', spec('accessModes')),
      column('Reclaim Policy', 'string', spec('persistentVolumeReclaimPolicy')),
      column('Status', 'string', fieldDoc(schema, ['status', 'phase'], 'pv')),
      column('Claim', 'string', spec('claimRef')),
      column('StorageClass', 'string', 'The storage class of the volume.'),
      column('VolumeAttributesClass', 'string', 'The volume attributes class of the volume.'),
      column('Reason', 'string', fieldDoc(schema, ['status', 'reason'], 'pv')),
      AGE_COLUMN,
      column('VolumeMode', 'string', spec('volumeMode'), { priority: 1 }),
    ]),
    cells: (obj: ApiObject, now: Date) => {
      const claim = valueAt(obj, 'spec', 'claimRef');
      const claimCell = claim ? `${stringAt(claim, 'namespace')}/${stringAt(claim, 'name')}` : '';
      return [
        objectName(obj),
        storageOf(valueAt(obj, 'spec', 'capacity')),
        accessModesString(valueAt(obj, 'spec', 'accessModes')),
        stringAt(obj, 'spec', 'persistentVolumeReclaimPolicy'),
        phaseOrTerminating(obj),
        claimCell,
        storageClass(obj),
        stringAt(obj, 'spec', 'volumeAttributesClassName') || '<unset>',
        stringAt(obj, 'status', 'reason'),
        age(obj, now),
        stringAt(obj, 'spec', 'volumeMode') || '<unset>',
      ];
    },
  });
}

/**
 * PersistentVolumeClaim: `Name`, `Status`, `Volume`, `Capacity` and `Access Modes` (once bound),
 * `StorageClass`, `VolumeAttributesClass`, `Age`, and the wide `VolumeMode`.
 */
export function persistentVolumeClaimTableColumns(schema: Schema): TableColumns {
  return Object.freeze({
    columnDefinitions: Object.freeze([
      NAME_COLUMN,
      column('Status', 'string', fieldDoc(schema, ['status', 'phase'], 'pvc')),
      column('Volume', 'string', fieldDoc(schema, ['spec', 'volumeName'], 'pvc')),
      column('Capacity', 'string', fieldDoc(schema, ['status', 'capacity'], 'pvc')),
      column('Access Modes', 'string', fieldDoc(schema, ['status', 'accessModes'], 'pvc')),
      column('StorageClass', 'string', 'The storage class of the claim.'),
      column('VolumeAttributesClass', 'string', 'The volume attributes class of the claim.'),
      AGE_COLUMN,
      column('VolumeMode', 'string', fieldDoc(schema, ['spec', 'volumeMode'], 'pvc'), { priority: 1 }),
    ]),
    cells: (obj: ApiObject, now: Date) => {
      const volumeName = stringAt(obj, 'spec', 'volumeName');
      const bound = volumeName !== '';
      return [
        objectName(obj),
        phaseOrTerminating(obj),
        volumeName,
        bound ? storageOf(valueAt(obj, 'status', 'capacity')) : '',
        bound ? accessModesString(valueAt(obj, 'status', 'accessModes')) : '',
        storageClass(obj),
        stringAt(obj, 'spec', 'volumeAttributesClassName') || '<unset>',
        age(obj, now),
        stringAt(obj, 'spec', 'volumeMode') || '<unset>',
      ];
    },
  });
}

/**
 * ResourceQuota: `Name`, `Request` and `Limit` (`resource: used/hard` of each hard resource, sorted;
 * `limits.*` in the second), `Age`.
 */
export function resourceQuotaTableColumns(): TableColumns {
  return Object.freeze({
    columnDefinitions: Object.freeze([
      NAME_COLUMN,
      column('Request', 'string', 'Used and hard amounts of each quota resource other than limits.'),
      column('Limit', 'string', 'Used and hard amounts of each limits quota resource.'),
      AGE_COLUMN,
    ]),
    cells: (obj: ApiObject, now: Date) => {
      const hard = (valueAt(obj, 'status', 'hard') ?? {}) as Json;
      const used = (valueAt(obj, 'status', 'used') ?? {}) as Json;
      const requests: string[] = [];
      const limits: string[] = [];
      for (const name of Object.keys(hard).sort()) {
        const pieces = name.split('.');
        const usedValue = Object.hasOwn(used, name) ? quantityString(used[name]) : '0';
        const entry = `${name}: ${usedValue}/${quantityString(hard[name])}`;
        (pieces.length > 1 && pieces[0] === 'limits' ? limits : requests).push(entry);
      }
      return [objectName(obj), requests.join(', '), limits.join(', '), age(obj, now)];
    },
  });
}

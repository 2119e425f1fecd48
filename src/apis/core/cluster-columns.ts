/**
 * kube's printer columns of Node, PersistentVolume, PersistentVolumeClaim and ResourceQuota
 * (`pkg/printers/internalversion/printers.go`). LimitRange has no printer in kube: it gets the
 * default `Name`/`Created At` table.
 */
import type { ApiObject } from '../object.js';
import type { Schema } from '../schema/schema.js';
import { AGE_COLUMN, column, NAME_COLUMN, objectName, stringAt, valueAt } from '../table/column-helpers.js';
import { AGE_SPEC, type ColumnSpec, declarativeTableColumns } from '../table/declarative-columns.js';
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
  const nodeInfo = (name: string, field: string): ColumnSpec => ({
    name,
    type: 'string',
    description: info(field),
    priority: 1,
    cell: (obj) => stringAt(obj, 'status', 'nodeInfo', field) || '<unknown>',
  });
  return declarativeTableColumns([
    {
      name: 'Status',
      type: 'string',
      description: 'Whether the node is ready, plus scheduling and other flags.',
      cell: nodeStatus,
    },
    {
      name: 'Roles',
      type: 'string',
      description: 'The roles named by the node labels.',
      cell: (obj) => nodeRoles(obj.metadata.labels).join(',') || '<none>',
    },
    AGE_SPEC,
    {
      name: 'Version',
      type: 'string',
      description: info('kubeletVersion'),
      jsonPath: '.status.nodeInfo.kubeletVersion',
      zero: '',
    },
    {
      name: 'Internal-IP',
      type: 'string',
      description: fieldDoc(schema, ['status', 'addresses']),
      priority: 1,
      cell: (obj) => nodeAddress(obj, 'InternalIP'),
    },
    {
      name: 'External-IP',
      type: 'string',
      description: fieldDoc(schema, ['status', 'addresses']),
      priority: 1,
      cell: (obj) => nodeAddress(obj, 'ExternalIP'),
    },
    nodeInfo('OS-Image', 'osImage'),
    nodeInfo('Kernel-Version', 'kernelVersion'),
    nodeInfo('Container-Runtime', 'containerRuntimeVersion'),
  ]);
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

const volumeAttributesClass = (obj: ApiObject): string =>
  stringAt(obj, 'spec', 'volumeAttributesClassName') || '<unset>';

const volumeMode = (obj: ApiObject): string => stringAt(obj, 'spec', 'volumeMode') || '<unset>';

function phaseOrTerminating(obj: ApiObject): string {
  return obj.metadata.deletionTimestamp ? 'Terminating' : stringAt(obj, 'status', 'phase');
}

/**
 * PersistentVolume: `Name`, `Capacity`, `Access Modes`, `Reclaim Policy`, `Status`, `Claim`,
 * `StorageClass`, `VolumeAttributesClass`, `Reason`, `Age`, and the wide `VolumeMode`.
 */
export function persistentVolumeTableColumns(schema: Schema): TableColumns {
  const spec = (f: string) => fieldDoc(schema, ['spec', f], 'pv');
  return declarativeTableColumns([
    {
      name: 'Capacity',
      type: 'string',
      description: spec('capacity'),
      cell: (obj) => storageOf(valueAt(obj, 'spec', 'capacity')),
    },
    {
      name: 'Access Modes',
      type: 'string',
      description: spec('accessModes'),
      cell: (obj) => accessModesString(valueAt(obj, 'spec', 'accessModes')),
    },
    {
      name: 'Reclaim Policy',
      type: 'string',
      description: spec('persistentVolumeReclaimPolicy'),
      jsonPath: '.spec.persistentVolumeReclaimPolicy',
      zero: '',
    },
    {
      name: 'Status',
      type: 'string',
      description: fieldDoc(schema, ['status', 'phase'], 'pv'),
      cell: phaseOrTerminating,
    },
    {
      name: 'Claim',
      type: 'string',
      description: spec('claimRef'),
      cell: (obj) => {
        const claim = valueAt(obj, 'spec', 'claimRef');
        return claim ? `${stringAt(claim, 'namespace')}/${stringAt(claim, 'name')}` : '';
      },
    },
    { name: 'StorageClass', type: 'string', description: 'The storage class of the volume.', cell: storageClass },
    {
      name: 'VolumeAttributesClass',
      type: 'string',
      description: 'The volume attributes class of the volume.',
      cell: volumeAttributesClass,
    },
    {
      name: 'Reason',
      type: 'string',
      description: fieldDoc(schema, ['status', 'reason'], 'pv'),
      jsonPath: '.status.reason',
      zero: '',
    },
    AGE_SPEC,
    { name: 'VolumeMode', type: 'string', description: spec('volumeMode'), priority: 1, cell: volumeMode },
  ]);
}

/**
 * PersistentVolumeClaim: `Name`, `Status`, `Volume`, `Capacity` and `Access Modes` (once bound),
 * `StorageClass`, `VolumeAttributesClass`, `Age`, and the wide `VolumeMode`.
 */
export function persistentVolumeClaimTableColumns(schema: Schema): TableColumns {
  const bound = (obj: ApiObject) => stringAt(obj, 'spec', 'volumeName') !== '';
  return declarativeTableColumns([
    {
      name: 'Status',
      type: 'string',
      description: fieldDoc(schema, ['status', 'phase'], 'pvc'),
      cell: phaseOrTerminating,
    },
    {
      name: 'Volume',
      type: 'string',
      description: fieldDoc(schema, ['spec', 'volumeName'], 'pvc'),
      jsonPath: '.spec.volumeName',
      zero: '',
    },
    {
      name: 'Capacity',
      type: 'string',
      description: fieldDoc(schema, ['status', 'capacity'], 'pvc'),
      cell: (obj) => (bound(obj) ? storageOf(valueAt(obj, 'status', 'capacity')) : ''),
    },
    {
      name: 'Access Modes',
      type: 'string',
      description: fieldDoc(schema, ['status', 'accessModes'], 'pvc'),
      cell: (obj) => (bound(obj) ? accessModesString(valueAt(obj, 'status', 'accessModes')) : ''),
    },
    { name: 'StorageClass', type: 'string', description: 'The storage class of the claim.', cell: storageClass },
    {
      name: 'VolumeAttributesClass',
      type: 'string',
      description: 'The volume attributes class of the claim.',
      cell: volumeAttributesClass,
    },
    AGE_SPEC,
    {
      name: 'VolumeMode',
      type: 'string',
      description: fieldDoc(schema, ['spec', 'volumeMode'], 'pvc'),
      priority: 1,
      cell: volumeMode,
    },
  ]);
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

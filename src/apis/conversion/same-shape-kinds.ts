/**
 * Kinds whose old versions have the served version's shape, so converting is a new `apiVersion`
 * (the spec's "use the v1 versions" rows), and the kinds this tool knows in one version only
 * (core/v1, batch/v1 Job), which it passes through. One row per group: the group (a named group
 * takes the domain suffix), the hub version, the removed versions and the kinds.
 */
import type { ApiDomain } from '../api-domain.js';
import type { ConvertFn, KindFamily } from './conversion-types.js';
import { retarget } from './json-helpers.js';

interface SameShapeRow {
  /** A plain group (`batch`, '' for core) or a base the domain names (`rbac.authorization`). */
  readonly group: string;
  readonly named: boolean;
  /** kube's internal package, which its conversion errors name. */
  readonly internalPackage: string;
  readonly hub: string;
  readonly removed: readonly string[];
  readonly kinds: readonly string[];
}

const ROWS: readonly SameShapeRow[] = [
  { group: 'batch', named: false, internalPackage: 'batch', hub: 'v1', removed: ['v1beta1'], kinds: ['CronJob'] },
  { group: 'batch', named: false, internalPackage: 'batch', hub: 'v1', removed: [], kinds: ['Job'] },
  { group: 'events', named: true, internalPackage: 'core', hub: 'v1', removed: ['v1beta1'], kinds: ['Event'] },
  {
    group: 'rbac.authorization',
    named: true,
    internalPackage: 'rbac',
    hub: 'v1',
    removed: ['v1beta1'],
    kinds: ['ClusterRole', 'ClusterRoleBinding', 'Role', 'RoleBinding'],
  },
  {
    group: 'scheduling',
    named: true,
    internalPackage: 'scheduling',
    hub: 'v1',
    removed: ['v1beta1'],
    kinds: ['PriorityClass'],
  },
  {
    group: 'storage',
    named: true,
    internalPackage: 'storage',
    hub: 'v1',
    removed: ['v1beta1'],
    kinds: ['CSIDriver', 'CSINode', 'CSIStorageCapacity', 'StorageClass', 'VolumeAttachment'],
  },
  {
    group: 'coordination',
    named: true,
    internalPackage: 'coordination',
    hub: 'v1',
    removed: ['v1beta1'],
    kinds: ['Lease'],
  },
  { group: 'node', named: true, internalPackage: 'node', hub: 'v1', removed: ['v1beta1'], kinds: ['RuntimeClass'] },
  {
    group: 'authentication',
    named: true,
    internalPackage: 'authentication',
    hub: 'v1',
    removed: ['v1beta1'],
    kinds: ['TokenReview'],
  },
  {
    group: 'apiregistration',
    named: true,
    internalPackage: 'apiregistration',
    hub: 'v1',
    removed: ['v1beta1'],
    kinds: ['APIService'],
  },
  {
    group: '',
    named: false,
    internalPackage: 'core',
    hub: 'v1',
    removed: [],
    kinds: [
      'Binding',
      'ConfigMap',
      'Endpoints',
      'Event',
      'LimitRange',
      'Namespace',
      'Node',
      'PersistentVolume',
      'PersistentVolumeClaim',
      'Pod',
      'PodTemplate',
      'ReplicationController',
      'ResourceQuota',
      'Secret',
      'Service',
      'ServiceAccount',
    ],
  },
];

/** The families of every row, group names from `domain`. */
export function sameShapeFamilies(domain: ApiDomain): KindFamily[] {
  return ROWS.flatMap((row) => {
    const group = row.named ? domain.group(row.group) : row.group;
    const hubVersion = group === '' ? row.hub : `${group}/${row.hub}`;
    const toHub: ConvertFn = (o) => retarget(o, hubVersion);
    return row.kinds.map((kind) => ({
      kind,
      internal: `${row.internalPackage}.${kind}`,
      served: [{ group, version: row.hub }],
      removed: row.removed.map((version) => ({ group, version, toHub })),
    }));
  });
}

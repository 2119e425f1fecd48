import type { ApiDomain } from '../api-domain.js';
import type { ApiObject } from '../object.js';
import type { Schema } from '../schema/schema.js';
import {
  AGE_COLUMN,
  column,
  describeField,
  itemCount,
  NAME_COLUMN,
  objectName,
  stringAt,
  valueAt,
} from '../table/column-helpers.js';
import { translateTimestampSince } from '../table/human-duration.js';
import type { TableColumns } from '../table/table-types.js';

/** kube's printers of the `storage.<domain>/v1` kinds; descriptions come from each kind's schema. */

function age(obj: ApiObject, now: Date): string {
  return translateTimestampSince(valueAt(obj, 'metadata', 'creationTimestamp'), now);
}

function boolAt(obj: unknown, fallback: boolean, ...path: string[]): boolean {
  const v = valueAt(obj, ...path);
  return typeof v === 'boolean' ? v : fallback;
}

/**
 * The annotations that mark the default StorageClass (`storageclass.<key domain>/is-default-class`
 * and its beta form), as kube's `IsDefaultAnnotation` reads them.
 */
export function defaultStorageClassAnnotations(domain: ApiDomain): readonly string[] {
  return [domain.key('storageclass', 'is-default-class'), domain.key('storageclass.beta', 'is-default-class')];
}

/**
 * StorageClass: `Name` (with ` (default)` for the default class), `Provisioner`, `ReclaimPolicy`
 * (Delete when unset), `VolumeBindingMode` (Immediate when unset), `AllowVolumeExpansion`, `Age`.
 */
export function storageClassTableColumns(schema: Schema, domain: ApiDomain): TableColumns {
  const defaultKeys = defaultStorageClassAnnotations(domain);
  return Object.freeze({
    columnDefinitions: Object.freeze([
      NAME_COLUMN,
      column(
        'Provisioner',
        'string',
        describeField(schema, 'provisioner') || 'The volume plugin that provisions volumes of this class.',
      ),
      column(
        'ReclaimPolicy',
        'string',
        describeField(schema, 'reclaimPolicy') || 'What happens to volumes of this class when released.',
      ),
      column(
        'VolumeBindingMode',
        'string',
        describeField(schema, 'volumeBindingMode') || 'When volumes of this class are bound and provisioned.',
      ),
      column(
        'AllowVolumeExpansion',
        'string',
        describeField(schema, 'allowVolumeExpansion') || 'Whether volumes of this class may be expanded.',
      ),
      AGE_COLUMN,
    ]),
    cells: (obj: ApiObject, now: Date) => {
      const annotations = obj.metadata.annotations ?? {};
      const isDefault = defaultKeys.some((k) => annotations[k] === 'true');
      return [
        isDefault ? `${objectName(obj)} (default)` : objectName(obj),
        stringAt(obj, 'provisioner'),
        stringAt(obj, 'reclaimPolicy') || 'Delete',
        stringAt(obj, 'volumeBindingMode') || 'Immediate',
        boolAt(obj, false, 'allowVolumeExpansion'),
        age(obj, now),
      ];
    },
  });
}

/**
 * CSIDriver: `Name`, `AttachRequired`, `PodInfoOnMount`, `StorageCapacity`, `TokenRequests`
 * (audiences joined with `,`, `<unset>` when none), `RequiresRepublish`, `Modes` (lifecycle modes
 * joined with `,`, `<none>` when none), `Age`.
 */
export function csiDriverTableColumns(schema: Schema): TableColumns {
  const spec = (field: string) => describeField(schema, 'spec', field);
  return Object.freeze({
    columnDefinitions: Object.freeze([
      NAME_COLUMN,
      column('AttachRequired', 'boolean', spec('attachRequired') || 'Whether the driver needs an attach operation.'),
      column(
        'PodInfoOnMount',
        'boolean',
        spec('podInfoOnMount') || 'Whether the driver wants pod information on mount.',
      ),
      column('StorageCapacity', 'boolean', spec('storageCapacity') || 'Whether the driver reports storage capacity.'),
      column(
        'TokenRequests',
        'string',
        spec('tokenRequests') || 'Audiences of the service account tokens the driver gets.',
      ),
      column(
        'RequiresRepublish',
        'boolean',
        spec('requiresRepublish') || 'Whether the driver wants volumes republished periodically.',
      ),
      column('Modes', 'string', spec('volumeLifecycleModes') || 'The volume lifecycle modes the driver supports.'),
      AGE_COLUMN,
    ]),
    cells: (obj: ApiObject, now: Date) => {
      const tokenRequests = valueAt(obj, 'spec', 'tokenRequests');
      const audiences = Array.isArray(tokenRequests) ? tokenRequests.map((t) => stringAt(t, 'audience')) : [];
      const modesValue = valueAt(obj, 'spec', 'volumeLifecycleModes');
      const modes = Array.isArray(modesValue) ? modesValue.filter((m) => typeof m === 'string').join(',') : '';
      return [
        objectName(obj),
        boolAt(obj, true, 'spec', 'attachRequired'),
        boolAt(obj, false, 'spec', 'podInfoOnMount'),
        boolAt(obj, false, 'spec', 'storageCapacity'),
        audiences.length > 0 ? audiences.join(',') : '<unset>',
        boolAt(obj, false, 'spec', 'requiresRepublish'),
        modes || '<none>',
        age(obj, now),
      ];
    },
  });
}

/** CSINode: `Name`, `Drivers` (the number of registered drivers), `Age`. */
export function csiNodeTableColumns(): TableColumns {
  return Object.freeze({
    columnDefinitions: Object.freeze([
      NAME_COLUMN,
      column('Drivers', 'integer', 'How many CSI drivers the node has registered.'),
      AGE_COLUMN,
    ]),
    cells: (obj: ApiObject, now: Date) => [objectName(obj), itemCount(valueAt(obj, 'spec', 'drivers')), age(obj, now)],
  });
}

/** VolumeAttachment: `Name`, `Attacher`, `PV`, `Node`, `Attached`, `Age`. */
export function volumeAttachmentTableColumns(schema: Schema): TableColumns {
  return Object.freeze({
    columnDefinitions: Object.freeze([
      NAME_COLUMN,
      column(
        'Attacher',
        'string',
        describeField(schema, 'spec', 'attacher') || 'The volume driver that attaches the volume.',
        { format: 'name' },
      ),
      column(
        'PV',
        'string',
        describeField(schema, 'spec', 'source', 'persistentVolumeName') || 'The persistent volume attached.',
      ),
      column('Node', 'string', describeField(schema, 'spec', 'nodeName') || 'The node the volume is attached to.'),
      column('Attached', 'boolean', describeField(schema, 'status', 'attached') || 'Whether the volume is attached.'),
      AGE_COLUMN,
    ]),
    cells: (obj: ApiObject, now: Date) => [
      objectName(obj),
      stringAt(obj, 'spec', 'attacher'),
      stringAt(obj, 'spec', 'source', 'persistentVolumeName'),
      stringAt(obj, 'spec', 'nodeName'),
      boolAt(obj, false, 'status', 'attached'),
      age(obj, now),
    ],
  });
}

/** CSIStorageCapacity: `Name`, `StorageClassName`, `Capacity` (`<unset>` when unset); no `Age`. */
export function csiStorageCapacityTableColumns(schema: Schema): TableColumns {
  return Object.freeze({
    columnDefinitions: Object.freeze([
      NAME_COLUMN,
      column(
        'StorageClassName',
        'string',
        describeField(schema, 'storageClassName') || 'The storage class the capacity is reported for.',
      ),
      column('Capacity', 'string', describeField(schema, 'capacity') || 'The available capacity.'),
    ]),
    cells: (obj: ApiObject) => [
      objectName(obj),
      stringAt(obj, 'storageClassName'),
      stringAt(obj, 'capacity') || '<unset>',
    ],
  });
}

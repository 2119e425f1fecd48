import type { ApiDomain } from '../api-domain.js';
import type { ApiObject } from '../object.js';
import type { Schema } from '../schema/schema.js';
import { describeField, itemCount, objectName, stringAt, valueAt } from '../table/column-helpers.js';
import { AGE_SPEC, declarativeTableColumns } from '../table/declarative-columns.js';
import type { TableColumns } from '../table/table-types.js';

/** kube's printers of the `storage.<domain>/v1` kinds; descriptions come from each kind's schema. */

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
  const nameCell = (obj: ApiObject) => {
    const annotations = obj.metadata.annotations ?? {};
    const isDefault = defaultKeys.some((k) => annotations[k] === 'true');
    return isDefault ? `${objectName(obj)} (default)` : objectName(obj);
  };
  return declarativeTableColumns(
    [
      {
        name: 'Provisioner',
        type: 'string',
        description: describeField(schema, 'provisioner') || 'The volume plugin that provisions volumes of this class.',
        jsonPath: '.provisioner',
        zero: '',
      },
      {
        name: 'ReclaimPolicy',
        type: 'string',
        description: describeField(schema, 'reclaimPolicy') || 'What happens to volumes of this class when released.',
        cell: (obj) => stringAt(obj, 'reclaimPolicy') || 'Delete',
      },
      {
        name: 'VolumeBindingMode',
        type: 'string',
        description:
          describeField(schema, 'volumeBindingMode') || 'When volumes of this class are bound and provisioned.',
        cell: (obj) => stringAt(obj, 'volumeBindingMode') || 'Immediate',
      },
      {
        name: 'AllowVolumeExpansion',
        type: 'string',
        description: describeField(schema, 'allowVolumeExpansion') || 'Whether volumes of this class may be expanded.',
        jsonPath: '.allowVolumeExpansion',
        readAs: 'boolean',
        zero: false,
      },
      AGE_SPEC,
    ],
    { nameCell },
  );
}

/**
 * CSIDriver: `Name`, `AttachRequired`, `PodInfoOnMount`, `StorageCapacity`, `TokenRequests`
 * (audiences joined with `,`, `<unset>` when none), `RequiresRepublish`, `Modes` (lifecycle modes
 * joined with `,`, `<none>` when none), `Age`.
 */
export function csiDriverTableColumns(schema: Schema): TableColumns {
  const spec = (field: string) => describeField(schema, 'spec', field);
  const flag = (name: string, field: string, fallback: string, zero: boolean) => ({
    name,
    type: 'boolean',
    description: spec(field) || fallback,
    jsonPath: `.spec.${field}`,
    zero,
  });
  return declarativeTableColumns([
    flag('AttachRequired', 'attachRequired', 'Whether the driver needs an attach operation.', true),
    flag('PodInfoOnMount', 'podInfoOnMount', 'Whether the driver wants pod information on mount.', false),
    flag('StorageCapacity', 'storageCapacity', 'Whether the driver reports storage capacity.', false),
    {
      name: 'TokenRequests',
      type: 'string',
      description: spec('tokenRequests') || 'Audiences of the service account tokens the driver gets.',
      cell: (obj) => {
        const tokenRequests = valueAt(obj, 'spec', 'tokenRequests');
        const audiences = Array.isArray(tokenRequests) ? tokenRequests.map((t) => stringAt(t, 'audience')) : [];
        return audiences.length > 0 ? audiences.join(',') : '<unset>';
      },
    },
    flag('RequiresRepublish', 'requiresRepublish', 'Whether the driver wants volumes republished periodically.', false),
    {
      name: 'Modes',
      type: 'string',
      description: spec('volumeLifecycleModes') || 'The volume lifecycle modes the driver supports.',
      cell: (obj) => {
        const modesValue = valueAt(obj, 'spec', 'volumeLifecycleModes');
        const modes = Array.isArray(modesValue) ? modesValue.filter((m) => typeof m === 'string').join(',') : '';
        return modes || '<none>';
      },
    },
    AGE_SPEC,
  ]);
}

/** CSINode: `Name`, `Drivers` (the number of registered drivers), `Age`. */
export function csiNodeTableColumns(): TableColumns {
  return declarativeTableColumns([
    {
      name: 'Drivers',
      type: 'integer',
      description: 'How many CSI drivers the node has registered.',
      cell: (obj) => itemCount(valueAt(obj, 'spec', 'drivers')),
    },
    AGE_SPEC,
  ]);
}

/** VolumeAttachment: `Name`, `Attacher`, `PV`, `Node`, `Attached`, `Age`. */
export function volumeAttachmentTableColumns(schema: Schema): TableColumns {
  return declarativeTableColumns([
    {
      name: 'Attacher',
      type: 'string',
      format: 'name',
      description: describeField(schema, 'spec', 'attacher') || 'The volume driver that attaches the volume.',
      jsonPath: '.spec.attacher',
      zero: '',
    },
    {
      name: 'PV',
      type: 'string',
      description: describeField(schema, 'spec', 'source', 'persistentVolumeName') || 'The persistent volume attached.',
      jsonPath: '.spec.source.persistentVolumeName',
      zero: '',
    },
    {
      name: 'Node',
      type: 'string',
      description: describeField(schema, 'spec', 'nodeName') || 'The node the volume is attached to.',
      jsonPath: '.spec.nodeName',
      zero: '',
    },
    {
      name: 'Attached',
      type: 'boolean',
      description: describeField(schema, 'status', 'attached') || 'Whether the volume is attached.',
      jsonPath: '.status.attached',
      zero: false,
    },
    AGE_SPEC,
  ]);
}

/** CSIStorageCapacity: `Name`, `StorageClassName`, `Capacity` (`<unset>` when unset); no `Age`. */
export function csiStorageCapacityTableColumns(schema: Schema): TableColumns {
  return declarativeTableColumns([
    {
      name: 'StorageClassName',
      type: 'string',
      description: describeField(schema, 'storageClassName') || 'The storage class the capacity is reported for.',
      jsonPath: '.storageClassName',
      zero: '',
    },
    {
      name: 'Capacity',
      type: 'string',
      description: describeField(schema, 'capacity') || 'The available capacity.',
      cell: (obj) => stringAt(obj, 'capacity') || '<unset>',
    },
  ]);
}

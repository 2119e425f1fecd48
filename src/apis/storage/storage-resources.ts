import { type ApiDomain, ORCH_DOMAIN } from '../api-domain.js';
import { type BuiltinResourceDefinition, STANDARD_VERBS } from '../meta/builtin-definition.js';
import { nameIsDNSSubdomain } from '../meta/name-validation.js';
import { nativeValidationSchema } from '../meta/native-validation-schema.js';
import { validateObjectMetaUpdate } from '../meta/object-meta-validation.js';
import { schemaStrategy, subresourceStrategy } from '../meta/resource-strategy.js';
import { hasInvalidLabelValue } from '../rbac/label-selector-validation.js';
import type { Schema } from '../schema/schema.js';
import { type CSIDriver, defaultCSIDriver, validateCSIDriver, validateCSIDriverUpdate } from './csi-driver-rules.js';
import { type CSINode, validateCSINode, validateCSINodeUpdate } from './csi-node-rules.js';
import {
  type CSIStorageCapacity,
  validateCSIStorageCapacity,
  validateCSIStorageCapacityUpdate,
} from './csi-storage-capacity-rules.js';
import {
  defaultStorageClass,
  type StorageClass,
  validateStorageClass,
  validateStorageClassUpdate,
} from './storage-class-rules.js';
import {
  csiDriverTableColumns,
  csiNodeTableColumns,
  csiStorageCapacityTableColumns,
  storageClassTableColumns,
  volumeAttachmentTableColumns,
} from './storage-columns.js';
import {
  csiDriverSchema,
  csiNodeSchema,
  csiStorageCapacitySchema,
  storageClassSchema,
  volumeAttachmentSchema,
} from './storage-v1-schemas.js';
import {
  type VolumeAttachment,
  validateVolumeAttachment,
  validateVolumeAttachmentUpdate,
} from './volume-attachment-rules.js';

interface Names {
  readonly kind: string;
  readonly resource: string;
  readonly namespaced?: boolean;
  readonly shortNames?: readonly string[];
  readonly listDescription: string;
}

function definition(
  domain: ApiDomain,
  names: Names,
  schema: Schema,
  rest: Pick<BuiltinResourceDefinition, 'strategy'> & Partial<BuiltinResourceDefinition>,
): BuiltinResourceDefinition {
  return {
    group: domain.group('storage'),
    version: 'v1',
    kind: names.kind,
    listKind: `${names.kind}List`,
    resource: names.resource,
    singular: names.kind.toLowerCase(),
    namespaced: names.namespaced ?? false,
    shortNames: names.shortNames ?? [],
    categories: [],
    verbs: STANDARD_VERBS,
    subresources: [],
    allowCreateOnUpdate: false,
    hasGeneration: false,
    schema,
    listDescription: names.listDescription,
    ...rest,
  };
}

/** `storageclasses` (`sc`): reclaim policy Delete and binding mode Immediate by default; provisioner, parameters, reclaim policy and binding mode never change. */
export function storageClassResource(domain: ApiDomain = ORCH_DOMAIN): BuiltinResourceDefinition {
  return definition(
    domain,
    {
      kind: 'StorageClass',
      resource: 'storageclasses',
      shortNames: ['sc'],
      listDescription: 'A list of storage classes.',
    },
    storageClassSchema,
    {
      strategy: schemaStrategy<StorageClass>({
        schema: nativeValidationSchema(storageClassSchema),
        namespaced: false,
        nameValidator: nameIsDNSSubdomain,
        defaults: defaultStorageClass,
        validateCreate: validateStorageClass,
        validateUpdate: (sc, old) => [...validateStorageClass(sc), ...validateStorageClassUpdate(sc, old)],
      }),
      tableColumns: storageClassTableColumns(storageClassSchema, domain),
    },
  );
}

/** `csidrivers`: kube's v1 defaults; `attachRequired` and the lifecycle modes never change. */
export function csiDriverResource(domain: ApiDomain = ORCH_DOMAIN): BuiltinResourceDefinition {
  return definition(
    domain,
    { kind: 'CSIDriver', resource: 'csidrivers', listDescription: 'A list of CSI drivers.' },
    csiDriverSchema,
    {
      strategy: schemaStrategy<CSIDriver>({
        schema: nativeValidationSchema(csiDriverSchema),
        namespaced: false,
        nameValidator: nameIsDNSSubdomain,
        defaults: defaultCSIDriver,
        validateCreate: validateCSIDriver,
        validateUpdate: validateCSIDriverUpdate,
      }),
      tableColumns: csiDriverTableColumns(csiDriverSchema),
    },
  );
}

/** `csinodes`: named after their node; an existing driver entry never changes. */
export function csiNodeResource(domain: ApiDomain = ORCH_DOMAIN): BuiltinResourceDefinition {
  return definition(
    domain,
    { kind: 'CSINode', resource: 'csinodes', listDescription: 'A list of CSI nodes.' },
    csiNodeSchema,
    {
      strategy: schemaStrategy<CSINode>({
        schema: nativeValidationSchema(csiNodeSchema),
        namespaced: false,
        nameValidator: nameIsDNSSubdomain,
        validateCreate: validateCSINode,
        validateUpdate: validateCSINodeUpdate,
      }),
      tableColumns: csiNodeTableColumns(),
    },
  );
}

/** `volumeattachments` with `status`: the spec never changes; the main resource keeps the status, `status` keeps the spec. */
export function volumeAttachmentResource(domain: ApiDomain = ORCH_DOMAIN): BuiltinResourceDefinition {
  const schema = nativeValidationSchema(volumeAttachmentSchema);
  return definition(
    domain,
    { kind: 'VolumeAttachment', resource: 'volumeattachments', listDescription: 'A list of volume attachments.' },
    volumeAttachmentSchema,
    {
      strategy: schemaStrategy<VolumeAttachment>({
        schema,
        namespaced: false,
        nameValidator: nameIsDNSSubdomain,
        prepareForCreate: (va) => {
          va.status = { attached: false };
        },
        prepareForUpdate: (va, old) => {
          va.status = structuredClone(old.status ?? { attached: false });
        },
        validateCreate: validateVolumeAttachment,
        validateUpdate: validateVolumeAttachmentUpdate,
      }),
      subresources: [
        {
          name: 'status',
          verbs: ['get', 'patch', 'update'],
          resetFields: ['spec'],
          strategy: subresourceStrategy<VolumeAttachment>({
            schema,
            prepareForUpdate: (va, old) => {
              va.spec = structuredClone(old.spec);
            },
            validateUpdate: (va, old) => [
              ...validateObjectMetaUpdate(va.metadata, old.metadata),
              ...validateVolumeAttachmentUpdate(va, old),
            ],
          }),
        },
      ],
      resetFields: ['status'],
      tableColumns: volumeAttachmentTableColumns(volumeAttachmentSchema),
    },
  );
}

/** `csistoragecapacities` (namespaced): node topology and storage class name never change. */
export function csiStorageCapacityResource(domain: ApiDomain = ORCH_DOMAIN): BuiltinResourceDefinition {
  return definition(
    domain,
    {
      kind: 'CSIStorageCapacity',
      resource: 'csistoragecapacities',
      namespaced: true,
      listDescription: 'A list of CSI storage capacities.',
    },
    csiStorageCapacitySchema,
    {
      strategy: schemaStrategy<CSIStorageCapacity>({
        schema: nativeValidationSchema(csiStorageCapacitySchema),
        namespaced: true,
        nameValidator: nameIsDNSSubdomain,
        validateCreate: (c) => validateCSIStorageCapacity(c),
        validateUpdate: (c, old) => [
          ...validateCSIStorageCapacity(c, {
            allowInvalidLabelValueInSelector: old.nodeTopology ? hasInvalidLabelValue([old.nodeTopology]) : false,
          }),
          ...validateCSIStorageCapacityUpdate(c, old),
        ],
      }),
      tableColumns: csiStorageCapacityTableColumns(csiStorageCapacitySchema),
    },
  );
}

/** The kinds of `storage.<domain>/v1`, in kube's discovery order. */
export function storageResources(domain: ApiDomain = ORCH_DOMAIN): BuiltinResourceDefinition[] {
  return [
    csiDriverResource(domain),
    csiNodeResource(domain),
    csiStorageCapacityResource(domain),
    storageClassResource(domain),
    volumeAttachmentResource(domain),
  ];
}

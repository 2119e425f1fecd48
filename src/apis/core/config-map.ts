import { type ApiDomain, ORCH_DOMAIN } from '../api-domain.js';
import { type BuiltinResourceDefinition, STANDARD_VERBS } from '../meta/builtin-definition.js';
import { type FieldError, fieldErrors } from '../meta/field-error.js';
import { isConfigMapKey, nameIsDNSSubdomain } from '../meta/name-validation.js';
import { objectMetaField } from '../meta/object-meta-schema.js';
import { standardFinalizers } from '../meta/object-meta-validation.js';
import { schemaStrategy } from '../meta/resource-strategy.js';
import { apiVersionField, kindField } from '../meta/type-meta-fields.js';
import type { ApiObject } from '../object.js';
import { keyPath } from '../schema/field-path.js';
import { base64DecodedLength } from '../schema/formats.js';
import { jsonEqual } from '../schema/json-value.js';
import { booleanField, bytesMapField, namedType, pb, pbPointer, stringMapField } from '../schema/named.js';
import type { Schema } from '../schema/schema.js';
import { configMapTableColumns } from '../table/builtin-columns.js';
import { CORE_V1 } from './object-reference-schema.js';

/** Largest total size of a ConfigMap's data and binaryData (and of a Secret's data), in bytes. */
export const MAX_CONFIG_DATA_SIZE_BYTES = 1024 * 1024;
/** kube's message for changes to immutable ConfigMaps and Secrets. */
export const IMMUTABLE_WHEN_SET = 'field is immutable when `immutable` is set';

export interface ConfigMap extends ApiObject {
  immutable?: boolean;
  data?: Record<string, string>;
  /** Base64-encoded values. */
  binaryData?: Record<string, string>;
}

export const configMapSchema: Schema = namedType(
  `${CORE_V1}.ConfigMap`,
  'ConfigMap holds configuration data for pods to consume.',
  {
    type: 'object',
    properties: {
      apiVersion: apiVersionField,
      kind: kindField,
      metadata: objectMetaField(),
      immutable: booleanField(
        'Immutable, if set to true, ensures that data stored in the ConfigMap cannot be updated (only object metadata can be modified). If not set to true, the field can be modified at any time. Defaulted to nil.',
        pbPointer(4),
      ),
      data: stringMapField(
        "Data contains the configuration data. Each key must consist of alphanumeric characters, '-', '_' or '.'. Values with non-UTF-8 byte sequences must use the BinaryData field. The keys stored in Data must not overlap with the keys in the BinaryData field, this is enforced during validation process.",
        pb(2),
      ),
      binaryData: bytesMapField(
        "BinaryData contains the binary data. Each key must consist of alphanumeric characters, '-', '_' or '.'. BinaryData can contain byte sequences that are not in the UTF-8 range. The keys stored in BinaryData must not overlap with the ones in the Data field, this is enforced during validation process. Using this field will require 1.10+ apiserver and kubelet.",
        pb(3),
      ),
    },
  },
);

/** kube's `ValidateConfigMap` beyond metadata: keys, no key in both maps, total size ≤ 1 MiB. */
export function validateConfigMapData(cm: ConfigMap): FieldError[] {
  const errs: FieldError[] = [];
  let total = 0;
  const binary = cm.binaryData ?? {};
  for (const [key, value] of Object.entries(cm.data ?? {})) {
    for (const msg of isConfigMapKey(key)) errs.push(fieldErrors.invalid(keyPath('data', key), key, msg));
    if (Object.hasOwn(binary, key)) {
      errs.push(fieldErrors.invalid(keyPath('data', key), key, 'duplicate of key present in binaryData'));
    }
    total += Buffer.byteLength(value, 'utf8');
  }
  for (const [key, value] of Object.entries(binary)) {
    for (const msg of isConfigMapKey(key)) errs.push(fieldErrors.invalid(keyPath('binaryData', key), key, msg));
    total += base64DecodedLength(value);
  }
  // kube reports the size against the whole object (an empty field path).
  if (total > MAX_CONFIG_DATA_SIZE_BYTES) errs.push(fieldErrors.tooLong('', MAX_CONFIG_DATA_SIZE_BYTES));
  return errs;
}

/** Empty and absent maps compare equal: kube never stores an empty map. */
export function sameData(a: Record<string, string> | undefined, b: Record<string, string> | undefined): boolean {
  return jsonEqual(a ?? {}, b ?? {});
}

/** kube's `ValidateConfigMapUpdate` immutability rules. */
export function validateConfigMapImmutability(cm: ConfigMap, old: ConfigMap): FieldError[] {
  if (old.immutable !== true) return [];
  const errs: FieldError[] = [];
  if (cm.immutable !== true) errs.push(fieldErrors.forbidden('immutable', IMMUTABLE_WHEN_SET));
  if (!sameData(cm.data, old.data)) errs.push(fieldErrors.forbidden('data', IMMUTABLE_WHEN_SET));
  if (!sameData(cm.binaryData, old.binaryData)) errs.push(fieldErrors.forbidden('binaryData', IMMUTABLE_WHEN_SET));
  return errs;
}

/** core/v1 `configmaps`. */
export function configMapResource(domain: ApiDomain = ORCH_DOMAIN): BuiltinResourceDefinition {
  return {
    group: '',
    version: 'v1',
    kind: 'ConfigMap',
    listKind: 'ConfigMapList',
    resource: 'configmaps',
    singular: 'configmap',
    namespaced: true,
    shortNames: ['cm'],
    categories: [],
    verbs: STANDARD_VERBS,
    subresources: [],
    allowCreateOnUpdate: false,
    hasGeneration: false,
    schema: configMapSchema,
    tableColumns: configMapTableColumns(configMapSchema),
    listDescription: 'ConfigMapList is a resource containing a list of ConfigMap objects.',
    listItemsDescription: 'Items is the list of ConfigMaps.',
    listMetadataDescription:
      'More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#metadata',
    strategy: schemaStrategy<ConfigMap>({
      schema: configMapSchema,
      namespaced: true,
      nameValidator: nameIsDNSSubdomain,
      standardFinalizers: standardFinalizers(domain),
      validateCreate: validateConfigMapData,
      validateUpdate: (cm, old) => [...validateConfigMapImmutability(cm, old), ...validateConfigMapData(cm)],
    }),
  };
}

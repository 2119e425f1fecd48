import { type ApiDomain, ORCH_DOMAIN } from '../api-domain.js';
import { type BuiltinResourceDefinition, STANDARD_VERBS } from '../meta/builtin-definition.js';
import { type FieldError, fieldErrors } from '../meta/field-error.js';
import { isConfigMapKey, nameIsDNSSubdomain } from '../meta/name-validation.js';
import { nativeValidationSchema } from '../meta/native-validation-schema.js';
import { standardFinalizers } from '../meta/object-meta-validation.js';
import { schemaStrategy } from '../meta/resource-strategy.js';
import type { ApiObject } from '../object.js';
import { keyPath } from '../schema/field-path.js';
import { base64DecodedLength } from '../schema/formats.js';
import { jsonEqual } from '../schema/json-value.js';
import { configMapTableColumns } from '../table/builtin-columns.js';
import { configMapSchema } from './core-v1-schemas.js';

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
    tableColumns: configMapTableColumns(),
    listDescription: 'A list of config maps.',
    listItemsDescription: 'The config maps.',
    strategy: schemaStrategy<ConfigMap>({
      schema: nativeValidationSchema(configMapSchema),
      namespaced: true,
      nameValidator: nameIsDNSSubdomain,
      standardFinalizers: standardFinalizers(domain),
      validateCreate: validateConfigMapData,
      validateUpdate: (cm, old) => [...validateConfigMapImmutability(cm, old), ...validateConfigMapData(cm)],
    }),
  };
}

import { type ApiDomain, ORCH_DOMAIN } from '../api-domain.js';
import { type BuiltinResourceDefinition, STANDARD_VERBS } from '../meta/builtin-definition.js';
import { nativeValidationSchema } from '../meta/native-validation-schema.js';
import { schemaStrategy, subresourceStrategy } from '../meta/resource-strategy.js';
import { jsonEqual } from '../schema/json-value.js';
import { customResourceDefinitionSchema } from './apiextensions-v1-schemas.js';
import { defaultCrd } from './crd-defaults.js';
import { CRD_CONDITIONS, type CustomResourceDefinition, setCrdCondition, storageVersionOf } from './crd-types.js';
import { validateCrdCreate, validateCrdStatusUpdate, validateCrdUpdate } from './crd-validation.js';
import type { SchemaRulesChecks } from './schema-validation.js';

/** The finalizer a CRD carries while its objects are being deleted: `customresourcecleanup.apiextensions.<domain>`. */
export function crdCleanupFinalizer(domain: ApiDomain): string {
  return `customresourcecleanup.${domain.group('apiextensions')}`;
}

/** Adds the storage version to `status.storedVersions` when it is not there yet (kube's strategy). */
function recordStorageVersion(crd: CustomResourceDefinition): void {
  const storage = storageVersionOf(crd.spec ?? {});
  if (storage === undefined) return;
  crd.status ??= {};
  const status = crd.status;
  const stored = Array.isArray(status.storedVersions) ? status.storedVersions : [];
  if (!stored.includes(storage)) status.storedVersions = [...stored, storage];
}

/** What the CRD kind needs from above the `apis` layer. */
export interface CrdResourceOptions {
  /** Validation-rule checks of schemas (the apiextensions layer's CEL compilation). */
  readonly rules?: SchemaRulesChecks;
}

/**
 * `apiextensions.<domain>/v1` `customresourcedefinitions` (short names `crd`, `crds`, category
 * `api-extensions`, cluster-scoped) with its `status` sub-resource. The strategy is kube's: on
 * create the status is reset and the storage version recorded in `status.storedVersions`; on
 * update the status is kept, the storage version added, and `metadata.generation` bumped when
 * `spec` changes. Deleting a CRD first marks it (deletionTimestamp, the `customresourcecleanup`
 * finalizer, condition `Terminating`); the finalizer controller deletes its objects and then the
 * finalizer. Served in JSON, YAML and CBOR (JSONSchemaProps has no Protobuf form here).
 */
export function customResourceDefinitionResource(
  domain: ApiDomain = ORCH_DOMAIN,
  options: CrdResourceOptions = {},
): BuiltinResourceDefinition {
  const schema = customResourceDefinitionSchema;
  const validation = nativeValidationSchema(schema);
  const finalizer = crdCleanupFinalizer(domain);
  const opts = { domain, rules: options.rules };
  return {
    group: domain.group('apiextensions'),
    version: 'v1',
    kind: 'CustomResourceDefinition',
    listKind: 'CustomResourceDefinitionList',
    resource: 'customresourcedefinitions',
    singular: 'customresourcedefinition',
    namespaced: false,
    shortNames: ['crd', 'crds'],
    categories: ['api-extensions'],
    verbs: STANDARD_VERBS,
    subresources: [
      {
        name: 'status',
        verbs: ['get', 'patch', 'update'],
        resetFields: ['metadata', 'spec'],
        strategy: subresourceStrategy<CustomResourceDefinition>({
          schema: validation,
          prepareForUpdate(obj, old) {
            obj.spec = old.spec;
          },
          validateUpdate: validateCrdStatusUpdate,
        }),
      },
    ],
    allowCreateOnUpdate: false,
    hasGeneration: true,
    schema,
    protobuf: false,
    resetFields: ['status'],
    strategy: {
      ...schemaStrategy<CustomResourceDefinition>({
        schema: validation,
        namespaced: false,
        defaults: defaultCrd,
        prepareForCreate(crd) {
          crd.status = {};
          recordStorageVersion(crd);
        },
        prepareForUpdate(crd, old) {
          crd.status = structuredClone(old.status ?? {});
          recordStorageVersion(crd);
        },
        validateCreate: (crd) => validateCrdCreate(crd, opts),
        validateUpdate: (crd, old) => validateCrdUpdate(crd, old, opts),
        generationChanged: (crd, old) => !jsonEqual(crd.spec, old.spec),
      }),
      controllerFinalization: {
        pending: (obj) => (obj.metadata.finalizers ?? []).includes(finalizer),
        markTerminating(obj) {
          const finalizers = obj.metadata.finalizers ?? [];
          if (!finalizers.includes(finalizer)) obj.metadata.finalizers = [...finalizers, finalizer];
          setCrdCondition(
            obj as CustomResourceDefinition,
            {
              type: CRD_CONDITIONS.terminating,
              status: 'True',
              reason: 'InstanceDeletionPending',
              message: 'CustomResourceDefinition marked for deletion; CustomResource deletion will begin soon',
            },
            obj.metadata.deletionTimestamp ?? '',
          );
        },
      },
    },
    listDescription: 'A list of custom resource definitions.',
  };
}

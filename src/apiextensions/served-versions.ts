import {
  type CustomResourceColumnDefinition,
  type CustomResourceDefinition,
  type CustomResourceDefinitionVersion,
  storageVersionOf,
} from '../apis/apiextensions/crd-types.js';
import { byKubeVersionPriority, compareKubeAwareVersions } from '../apis/apiextensions/version-priority.js';
import { type BuiltinResourceDefinition, STANDARD_VERBS } from '../apis/meta/builtin-definition.js';
import type { ApiObject } from '../apis/object.js';
import {
  type AsyncStorageVersionConversion,
  apiVersionOf,
  type ResourceDefinition,
  type StorageVersionConversion,
  type SubresourceDefinition,
} from '../apis/resource-definition.js';
import { applyDefaults } from '../apis/schema/defaults.js';
import { pruneUnknownFields } from '../apis/schema/prune.js';
import type { Schema } from '../apis/schema/schema.js';
import { selectableFieldLabels } from '../apis/selectors/selectable-fields.js';
import { CREATED_DESCRIPTION } from '../apis/table/column-helpers.js';
import { declarativeTableColumns } from '../apis/table/declarative-columns.js';
import type { Converter } from './conversion.js';
import { type CustomResourceSchemas, customResourceSchemas } from './custom-resource-schema.js';
import { customResourceStatusStrategy, customResourceStrategy } from './custom-resource-strategy.js';
import { customResourceScale } from './scale-paths.js';
import { compileSchemaRules } from './schema-rules.js';

/** What serving a CRD needs besides the CRD. */
export interface ServedVersionsOptions {
  /** `autoscaling/v1` Scale's schema (the `scale` sub-resource's kind). */
  readonly scaleSchema: Schema;
  /** Whether the CRD is being deleted now (creates are refused then). Read per request. */
  readonly terminating: () => boolean;
  /**
   * The converter of a CRD whose conversion is `Webhook` (see webhook-converter.ts). Without
   * one such a CRD is served in its storage version only.
   */
  readonly webhook?: Converter;
}

/** The descriptions of the list kind the OpenAPI documents read (kube's CRD builder words them). */
type ListDescriptions = Pick<
  BuiltinResourceDefinition,
  'listDescription' | 'listItemsDescription' | 'listMetadataDescription'
>;

/** kube's default column of a version without printer columns: the age. */
const AGE: CustomResourceColumnDefinition = {
  name: 'Age',
  type: 'date',
  description: CREATED_DESCRIPTION,
  jsonPath: '.metadata.creationTimestamp',
};

/** kube's warning for a deprecated version without its own: the newer served version to use instead. */
function defaultDeprecationWarning(crd: CustomResourceDefinition, version: string): string {
  const group = crd.spec.group ?? '';
  const kind = crd.spec.names?.kind ?? '';
  const msg = `${group}/${version} ${kind} is deprecated`;
  const newer = (crd.spec.versions ?? [])
    .filter((v) => v.served && !v.deprecated && v.name && compareKubeAwareVersions(version, v.name) < 0)
    .map((v) => v.name as string);
  if (newer.length === 0) return msg;
  return `${msg}; use ${group}/${byKubeVersionPriority(newer)[0]} ${kind}`;
}

/**
 * Conversion `None` between the versions of one CRD (kube's nop converter): a stored object is
 * shown in this version by rewriting `apiVersion`, then pruned and defaulted with this version's
 * schema (kube prunes and defaults what it reads from storage); a written object is stored in
 * the storage version by rewriting `apiVersion` back.
 */
function noneConversion(
  storageApiVersion: string,
  apiVersion: string,
  schemas: CustomResourceSchemas,
): StorageVersionConversion {
  return {
    apiVersion: storageApiVersion,
    readsEveryVersion: true,
    fromStorage(stored) {
      stored.apiVersion = apiVersion;
      pruneUnknownFields(schemas.published, stored);
      applyDefaults(schemas.published, stored);
      return stored;
    },
    toStorage: (obj): ApiObject =>
      obj.apiVersion === storageApiVersion ? obj : { ...obj, apiVersion: storageApiVersion },
  };
}

/**
 * Conversion `Webhook` between the versions of one CRD: stored objects (of any version) are
 * shown in this version through the webhook, in batches, then pruned and defaulted with this
 * version's schema; written objects are converted to the storage version through it. Objects
 * already in the target version are not sent (and are copied before pruning, since readers
 * share them).
 */
function webhookConversion(
  storageApiVersion: string,
  apiVersion: string,
  schemas: CustomResourceSchemas,
  converter: Converter,
): AsyncStorageVersionConversion {
  return {
    apiVersion: storageApiVersion,
    async: true,
    async fromStorage(stored, signal) {
      const converted = await converter.convert(stored, apiVersion, signal);
      return converted.map((obj, i) => {
        const own = obj === stored[i] ? structuredClone(obj) : obj;
        pruneUnknownFields(schemas.published, own);
        applyDefaults(schemas.published, own);
        return own;
      });
    },
    toStorage: (objects, signal) => converter.convert(objects, storageApiVersion, signal),
  };
}

function versionDefinition(
  crd: CustomResourceDefinition,
  v: CustomResourceDefinitionVersion,
  o: ServedVersionsOptions,
): ResourceDefinition & ListDescriptions {
  const group = crd.spec.group ?? '';
  const names = crd.status?.acceptedNames ?? {};
  const version = v.name ?? '';
  const namespaced = crd.spec.scope === 'Namespaced';
  const schemas = customResourceSchemas(v.schema?.openAPIV3Schema);
  // A served definition's expressions compile with every library the server has (kube's stored
  // expressions environment); definition-time errors were reported when it was written.
  const rules = compileSchemaRules(schemas.structural, { storedExpressions: true }).rules;
  const scalePaths = v.subresources?.scale;
  const scale =
    scalePaths?.specReplicasPath && scalePaths.statusReplicasPath
      ? {
          specReplicasPath: scalePaths.specReplicasPath,
          statusReplicasPath: scalePaths.statusReplicasPath,
          labelSelectorPath: scalePaths.labelSelectorPath || undefined,
        }
      : undefined;
  const statusSubresource = v.subresources?.status !== undefined && v.subresources.status !== null;
  const strategyOptions = {
    schemas,
    namespaced,
    statusSubresource,
    scale,
    rules,
    refuseCreate: () =>
      o.terminating() ? 'create not allowed while custom resource definition is terminating' : undefined,
  };
  const subresources: SubresourceDefinition[] = [];
  if (statusSubresource) {
    subresources.push({
      name: 'status',
      verbs: ['get', 'patch', 'update'],
      strategy: customResourceStatusStrategy(strategyOptions),
      resetFields: ['spec'],
    });
  }
  if (scale) subresources.push(customResourceScale(scale, o.scaleSchema));
  const columns = (v.additionalPrinterColumns ?? []).length > 0 ? (v.additionalPrinterColumns ?? []) : [AGE];
  const storage = storageVersionOf(crd.spec) ?? version;
  const kind = names.kind ?? '';
  const listKind = names.listKind ?? `${kind}List`;
  const plural = names.plural ?? '';
  return {
    group,
    version,
    kind,
    listKind,
    resource: plural,
    singular: names.singular ?? '',
    namespaced,
    shortNames: names.shortNames ?? [],
    categories: names.categories ?? [],
    verbs: STANDARD_VERBS,
    subresources,
    allowCreateOnUpdate: false,
    hasGeneration: true,
    schema: schemas.published,
    openApi: {
      v2Schema: schemas.publishedV2,
      selectableFields: (v.selectableFields ?? []).map((f) => (f.jsonPath ?? '').replace(/^\./, '')),
    },
    listDescription: `${listKind} is a list of ${kind}`,
    listItemsDescription: `List of ${plural}. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md`,
    listMetadataDescription:
      'Standard list metadata. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#types-kinds',
    strategy: customResourceStrategy(strategyOptions),
    fieldLabels: selectableFieldLabels(
      namespaced,
      (v.selectableFields ?? []).map((f) => f.jsonPath ?? '').filter((p) => p !== ''),
    ),
    tableColumns: declarativeTableColumns(
      columns.map((c) => ({
        name: c.name ?? '',
        type: c.type ?? '',
        format: c.format,
        description: c.description,
        priority: c.priority,
        jsonPath: c.jsonPath ?? '',
      })),
    ),
    resetFields: statusSubresource ? ['status'] : undefined,
    protobuf: false,
    strategicMergePatch: false,
    deprecationWarning: v.deprecated ? (v.deprecationWarning ?? defaultDeprecationWarning(crd, version)) : undefined,
    storageVersion: o.webhook
      ? webhookConversion(
          apiVersionOf({ group, version: storage }),
          apiVersionOf({ group, version }),
          schemas,
          o.webhook,
        )
      : noneConversion(apiVersionOf({ group, version: storage }), apiVersionOf({ group, version }), schemas),
  };
}

/**
 * The resource definitions serving a CRD: one per served version, highest version priority
 * first, named by the CRD's accepted names. Conversion between versions is `None`, or `Webhook`
 * through `o.webhook`; a CRD whose conversion is `Webhook` is served in its storage version
 * only when no converter is given (its other versions would need the webhook).
 */
export function servedVersionDefinitions(
  crd: CustomResourceDefinition,
  o: ServedVersionsOptions,
): ResourceDefinition[] {
  const storage = storageVersionOf(crd.spec ?? {});
  const webhook = crd.spec?.conversion?.strategy === 'Webhook';
  const onlyStorage = webhook && !o.webhook;
  const served = (crd.spec?.versions ?? []).filter((v) => v.served && v.name && (!onlyStorage || v.name === storage));
  const order = byKubeVersionPriority(served.map((v) => v.name as string));
  const opts = webhook ? o : { ...o, webhook: undefined };
  return order.map((name) => versionDefinition(crd, served.find((v) => v.name === name)!, opts));
}

import { jsonEqual } from '../schema/json-value.js';
import type {
  CustomResourceColumnDefinition,
  CustomResourceDefinitionNames,
  CustomResourceDefinitionSpec,
  CustomResourceDefinitionVersion,
  CustomResourceSubresources,
  JSONSchemaProps,
  SelectableField,
  WebhookClientConfig,
} from './crd-types.js';

/**
 * kube validates a v1 CustomResourceDefinition in its internal form, and its error paths name
 * that form: per-version schemas, sub-resources, printer columns and selectable fields that are
 * identical in every version move to the top of the spec (`spec.validation`,
 * `spec.subresources`, `spec.additionalPrinterColumns`, `spec.selectableFields`), the first
 * version's name becomes `spec.version`, and the conversion webhook's client configuration and
 * review versions sit on `spec.conversion` itself. This is that view of a v1 spec.
 */
export interface InternalCrdSpec {
  readonly group: string;
  readonly names: CustomResourceDefinitionNames;
  readonly scope: string;
  readonly version: string;
  readonly versions: readonly InternalCrdVersion[];
  readonly validation?: { openAPIV3Schema?: JSONSchemaProps };
  readonly subresources?: CustomResourceSubresources;
  readonly additionalPrinterColumns?: readonly CustomResourceColumnDefinition[];
  readonly selectableFields?: readonly SelectableField[];
  readonly conversion?: InternalConversion;
  /** Always set for a v1 spec (its `bool` becomes a pointer to it). */
  readonly preserveUnknownFields: boolean;
}

export interface InternalCrdVersion {
  readonly name: string;
  readonly served: boolean;
  readonly storage: boolean;
  readonly deprecated: boolean;
  readonly deprecationWarning?: string;
  readonly schema?: { openAPIV3Schema?: JSONSchemaProps };
  readonly subresources?: CustomResourceSubresources;
  readonly additionalPrinterColumns?: readonly CustomResourceColumnDefinition[];
  readonly selectableFields?: readonly SelectableField[];
}

export interface InternalConversion {
  readonly strategy: string;
  readonly webhookClientConfig?: WebhookClientConfig;
  readonly conversionReviewVersions?: readonly string[];
}

function str(v: unknown): string {
  return typeof v === 'string' ? v : '';
}

function internalVersion(v: CustomResourceDefinitionVersion): InternalCrdVersion {
  return {
    name: str(v.name),
    served: v.served === true,
    storage: v.storage === true,
    deprecated: v.deprecated === true,
    deprecationWarning: typeof v.deprecationWarning === 'string' ? v.deprecationWarning : undefined,
    schema: v.schema ?? undefined,
    subresources: v.subresources ?? undefined,
    additionalPrinterColumns: v.additionalPrinterColumns ?? undefined,
    selectableFields: v.selectableFields ?? undefined,
  };
}

type Hoisted = 'schema' | 'subresources' | 'additionalPrinterColumns' | 'selectableFields';

/** Whether every version holds the same value of `field` (Go's semantic deep equality; nil equals nil). */
function identical(versions: readonly InternalCrdVersion[], field: Hoisted): boolean {
  const first = versions[0][field];
  return versions.every((v) => sameValue(v[field], first));
}

function sameValue(a: unknown, b: unknown): boolean {
  if (a === undefined || b === undefined) return a === b;
  return jsonEqual(a, b);
}

/** The internal view of a v1 spec (see {@link InternalCrdSpec}). Pure. */
export function internalCrdSpec(spec: CustomResourceDefinitionSpec): InternalCrdSpec {
  let versions = (Array.isArray(spec.versions) ? spec.versions : []).map(internalVersion);
  const hoisted: Partial<Record<Hoisted, unknown>> = {};
  if (versions.length > 0) {
    for (const field of ['schema', 'subresources', 'additionalPrinterColumns', 'selectableFields'] as const) {
      if (!identical(versions, field)) continue;
      hoisted[field] = versions[0][field];
      versions = versions.map((v) => ({ ...v, [field]: undefined }));
    }
  }
  const conversion = spec.conversion;
  return {
    group: str(spec.group),
    names: spec.names ?? {},
    scope: str(spec.scope),
    version: versions[0]?.name ?? '',
    versions,
    validation: hoisted.schema as InternalCrdSpec['validation'],
    subresources: hoisted.subresources as CustomResourceSubresources | undefined,
    additionalPrinterColumns: hoisted.additionalPrinterColumns as CustomResourceColumnDefinition[] | undefined,
    selectableFields: hoisted.selectableFields as SelectableField[] | undefined,
    conversion: conversion
      ? {
          strategy: str(conversion.strategy),
          webhookClientConfig: conversion.webhook?.clientConfig ?? undefined,
          conversionReviewVersions: conversion.webhook?.conversionReviewVersions ?? undefined,
        }
      : undefined,
    preserveUnknownFields: spec.preserveUnknownFields === true,
  };
}

/** The sub-resources of `version`: its own when any version has its own, else the top-level ones. */
export function subresourcesForVersion(
  spec: InternalCrdSpec,
  version: InternalCrdVersion,
): CustomResourceSubresources | undefined {
  if (!spec.versions.some((v) => v.subresources !== undefined)) return spec.subresources;
  return version.subresources;
}

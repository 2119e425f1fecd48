/**
 * CustomResourceDefinition from apiextensions.<domain>/v1beta1 into v1, as kube converts it:
 * `spec.version` becomes a served and stored entry of `spec.versions` when that list is empty;
 * the CRD-wide `spec.validation`, `spec.subresources` and `spec.additionalPrinterColumns` move
 * into every version (as `schema`, `subresources`, `additionalPrinterColumns`); a printer
 * column's `JSONPath` becomes `jsonPath`; `spec.conversion.webhookClientConfig` and
 * `conversionReviewVersions` move under `spec.conversion.webhook` (v1beta1 defaulted the review
 * versions to `[v1beta1]`); `spec.scope` gets v1beta1's default `Namespaced`. v1 does not allow
 * `spec.preserveUnknownFields: true`: such a definition is refused with the server's message.
 * An unset `preserveUnknownFields` is left out (v1's false: unknown fields are pruned).
 */
import type { ApiDomain } from '../api-domain.js';
import type { ApiObject } from '../object.js';
import { cloneJson } from '../schema/json-value.js';
import { ConversionRefusedError, type KindFamily } from './conversion-types.js';
import { isSet, type Obj, obj, omit, renameKey } from './json-helpers.js';

const columnToV1 = (c: unknown): unknown => renameKey(obj(c), 'JSONPath', 'jsonPath');

function versionToV1(v: unknown, shared: { validation: unknown; subresources: unknown; columns: unknown }): Obj {
  const out = { ...obj(v) };
  if (!isSet(out.schema) && isSet(shared.validation)) out.schema = cloneJson(shared.validation);
  if (!isSet(out.subresources) && isSet(shared.subresources)) out.subresources = cloneJson(shared.subresources);
  if (!isSet(out.additionalPrinterColumns) && isSet(shared.columns))
    out.additionalPrinterColumns = cloneJson(shared.columns);
  if (Array.isArray(out.additionalPrinterColumns))
    out.additionalPrinterColumns = out.additionalPrinterColumns.map(columnToV1);
  return out;
}

function conversionToV1(c: unknown): unknown {
  if (!isSet(c)) return c;
  const old = obj(c);
  const out = omit(old, 'webhookClientConfig', 'conversionReviewVersions');
  if (old.strategy === 'Webhook' || isSet(old.webhookClientConfig) || isSet(old.conversionReviewVersions)) {
    const webhook: Obj = {};
    if (isSet(old.webhookClientConfig)) webhook.clientConfig = old.webhookClientConfig;
    webhook.conversionReviewVersions = isSet(old.conversionReviewVersions) ? old.conversionReviewVersions : ['v1beta1'];
    out.webhook = webhook;
  }
  return out;
}

function crdToV1(apiVersion: string): (o: ApiObject) => ApiObject {
  return (o) => {
    const out = cloneJson(o);
    const spec = obj(out.spec);
    if (spec.preserveUnknownFields === true) {
      throw new ConversionRefusedError(o.kind, o.metadata?.name ?? '', [
        'spec.preserveUnknownFields: Invalid value: true: cannot set to true, set x-kubernetes-preserve-unknown-fields to true in spec.versions[*].schema instead',
      ]);
    }
    const shared = {
      validation: spec.validation,
      subresources: spec.subresources,
      columns: spec.additionalPrinterColumns,
    };
    let versions = Array.isArray(spec.versions) ? spec.versions : [];
    if (versions.length === 0 && typeof spec.version === 'string' && spec.version !== '') {
      versions = [{ name: spec.version, served: true, storage: true }];
    }
    const next: Obj = {};
    for (const [k, v] of Object.entries(
      omit(spec, 'version', 'validation', 'subresources', 'additionalPrinterColumns', 'versions'),
    )) {
      next[k] = k === 'conversion' ? conversionToV1(v) : v;
    }
    if (!isSet(next.scope)) next.scope = 'Namespaced';
    if (next.preserveUnknownFields === false) delete next.preserveUnknownFields;
    next.versions = versions.map((v) => versionToV1(v, shared));
    out.spec = next;
    out.apiVersion = apiVersion;
    return out;
  };
}

/** CustomResourceDefinition in apiextensions.<domain>/v1 and v1beta1. */
export function apiextensionsFamilies(domain: ApiDomain): KindFamily[] {
  const group = domain.group('apiextensions');
  return [
    {
      kind: 'CustomResourceDefinition',
      internal: 'apiextensions.CustomResourceDefinition',
      served: [{ group, version: 'v1' }],
      removed: [{ group, version: 'v1beta1', toHub: crdToV1(`${group}/v1`) }],
    },
  ];
}

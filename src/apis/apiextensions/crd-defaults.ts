import type { CustomResourceDefinition } from './crd-types.js';

/**
 * kube's `SetDefaults_CustomResourceDefinition` (v1): `names.singular` is the lower-cased kind,
 * `names.listKind` is `<kind>List`, `conversion` defaults to strategy `None`, a conversion
 * webhook's service port to 443, and `status.storedVersions` to the storage version when empty.
 * Mutates `crd`; values of the wrong type are left for validation to report.
 */
export function defaultCrd(crd: CustomResourceDefinition): void {
  const spec = crd.spec;
  if (typeof spec !== 'object' || spec === null) return;
  const names = spec.names;
  if (names && typeof names === 'object') {
    if (!names.singular && typeof names.kind === 'string') names.singular = names.kind.toLowerCase();
    if (!names.listKind && typeof names.kind === 'string' && names.kind !== '') names.listKind = `${names.kind}List`;
  }
  if (spec.conversion === undefined || spec.conversion === null) spec.conversion = { strategy: 'None' };
  const service = spec.conversion.webhook?.clientConfig?.service;
  if (service && typeof service === 'object' && (service.port === undefined || service.port === null))
    service.port = 443;
  const stored = crd.status?.storedVersions;
  if (!Array.isArray(stored) || stored.length === 0) {
    const storage = Array.isArray(spec.versions) ? spec.versions.find((v) => v?.storage === true) : undefined;
    if (storage && typeof storage.name === 'string') {
      crd.status = { ...(crd.status ?? {}), storedVersions: [storage.name] };
    }
  }
}

import type { ApiDomain } from '../api-domain.js';
import { type FieldError, fieldErrors, invalidShown } from '../meta/field-error.js';
import { isDNS1035Label, isDNS1123Subdomain, type NameValidator, nameIsDNSSubdomain } from '../meta/name-validation.js';
import {
  validateImmutableField,
  validateObjectMeta,
  validateObjectMetaUpdate,
} from '../meta/object-meta-validation.js';
import { childPath, indexPath, keyPath } from '../schema/field-path.js';
import { jsonEqual } from '../schema/json-value.js';
import { validateConversion } from './conversion-validation.js';
import { type InternalCrdSpec, internalCrdSpec, subresourcesForVersion } from './crd-internal.js';
import {
  CRD_CONDITIONS,
  type CustomResourceDefinition,
  type CustomResourceDefinitionNames,
  isCrdConditionTrue,
  type JSONSchemaProps,
} from './crd-types.js';
import { goSharpVersions } from './go-sharp-v.js';
import { type RulesContext, type SchemaRulesChecks, validateVersionSchema } from './schema-validation.js';
import { hasDefault, specHasSchemaWith } from './schema-walk.js';
import { validateColumn, validateSelectableFields, validateSubresources } from './version-parts-validation.js';

/**
 * kube's CustomResourceDefinition validation (apiextensions `ValidateCustomResourceDefinition`
 * and `...Update`), on the internal view of the v1 object (see `crd-internal.ts`), so every
 * error carries kube's field path and words. Validation rules (CEL) are checked through
 * `rules`, which the apiextensions layer provides.
 */
export interface CrdValidationOptions {
  readonly domain: ApiDomain;
  readonly rules?: SchemaRulesChecks;
}

/** What an update may keep because the stored object already had it (kube's ratcheting options). */
interface Tightening {
  readonly requireRecognizedConversionReviewVersion: boolean;
  readonly requireImmutableNames: boolean;
  readonly requireOpenAPISchema: boolean;
  readonly requireValidPropertyType: boolean;
  readonly requireStructuralSchema: boolean;
  readonly requirePrunedDefaults: boolean;
  readonly requireAtomicSetType: boolean;
  readonly requireMapListKeysMapSetValidation: boolean;
  readonly allowInvalidCABundle: boolean;
  /** The rules of the stored definition (an update), for the rule checks. */
  readonly preexisting?: RulesContext['preexisting'];
  /** Versions whose schema the update leaves as it is. */
  readonly unchangedSchemas?: ReadonlySet<string>;
}

const CREATE: Tightening = {
  requireRecognizedConversionReviewVersion: true,
  requireImmutableNames: false,
  requireOpenAPISchema: true,
  requireValidPropertyType: true,
  requireStructuralSchema: true,
  requirePrunedDefaults: true,
  requireAtomicSetType: true,
  requireMapListKeysMapSetValidation: true,
  allowInvalidCABundle: true,
};

/** All errors of a new CRD. */
export function validateCrdCreate(crd: CustomResourceDefinition, opts: CrdValidationOptions): FieldError[] {
  const spec = internalCrdSpec(crd.spec ?? {});
  const required = `${spec.names.plural ?? ''}.${spec.group}`;
  const nameValidator: NameValidator = (name, prefix) => {
    const errs = nameIsDNSSubdomain(name, prefix);
    return name === required ? errs : [...errs, 'must be spec.names.plural+"."+spec.group'];
  };
  return [
    ...validateObjectMeta(crd.metadata ?? {}, { namespaced: false, nameValidator }),
    ...validateSpec(spec, CREATE, opts, 'spec'),
    ...validateStatus(crd),
    ...validateStoredVersions(crd, spec),
    ...validateApiApproval(crd, undefined, opts.domain),
    ...validatePreserveUnknownFields(spec, undefined),
  ];
}

/** All errors of an update of a CRD (`old` is the stored object). */
export function validateCrdUpdate(
  crd: CustomResourceDefinition,
  old: CustomResourceDefinition,
  opts: CrdValidationOptions,
): FieldError[] {
  const spec = internalCrdSpec(crd.spec ?? {});
  const oldSpec = internalCrdSpec(old.spec ?? {});
  const tightening = updateTightening(old, oldSpec, spec);
  const errs = [...validateObjectMetaUpdate(crd.metadata ?? {}, old.metadata ?? {}, {})];
  errs.push(...validateSpec(spec, tightening, opts, 'spec'));
  if (tightening.requireImmutableNames) {
    errs.push(...validateImmutableField(spec.scope, oldSpec.scope, 'spec.scope'));
    errs.push(...validateImmutableField(spec.names.kind ?? '', oldSpec.names.kind ?? '', 'spec.names.kind'));
  }
  errs.push(...validateImmutableField(spec.group, oldSpec.group, 'spec.group'));
  errs.push(...validateImmutableField(spec.names.plural ?? '', oldSpec.names.plural ?? '', 'spec.names.plural'));
  errs.push(...validateStatus(crd));
  errs.push(...validateStoredVersions(crd, spec));
  errs.push(...validateApiApproval(crd, old, opts.domain));
  errs.push(...validatePreserveUnknownFields(spec, oldSpec));
  return errs;
}

/** Errors of an update through `status` (metadata rules and the accepted names). */
export function validateCrdStatusUpdate(crd: CustomResourceDefinition, old: CustomResourceDefinition): FieldError[] {
  return [...validateObjectMetaUpdate(crd.metadata ?? {}, old.metadata ?? {}, {}), ...validateStatus(crd)];
}

/** Every rule and message expression of a spec's schemas (kube's `findPreexistingExpressions`). */
function preexistingExpressions(spec: InternalCrdSpec): NonNullable<RulesContext['preexisting']> {
  const rules = new Set<string>();
  const messageExpressions = new Set<string>();
  const pred = (s: JSONSchemaProps) => {
    for (const r of s['x-kubernetes-validations'] ?? []) {
      if (typeof r?.rule === 'string') rules.add(r.rule);
      if (typeof r?.messageExpression === 'string' && r.messageExpression !== '')
        messageExpressions.add(r.messageExpression);
    }
    return false;
  };
  specHasSchemaWith(spec, pred);
  return { rules, messageExpressions };
}

/** The schema of a version (top-level or its own). */
function schemaOfVersion(spec: InternalCrdSpec, name: string): JSONSchemaProps | undefined {
  return spec.validation?.openAPIV3Schema ?? spec.versions.find((v) => v.name === name)?.schema?.openAPIV3Schema;
}

/** kube's `findVersionsWithUnchangedSchemas`. */
function unchangedSchemas(spec: InternalCrdSpec, oldSpec: InternalCrdSpec): Set<string> {
  const out = new Set<string>();
  for (const v of spec.versions) {
    const now = schemaOfVersion(spec, v.name);
    const before = schemaOfVersion(oldSpec, v.name);
    if (now !== undefined && before !== undefined && jsonEqual(now, before)) out.add(v.name);
  }
  return out;
}

function updateTightening(old: CustomResourceDefinition, oldSpec: InternalCrdSpec, spec: InternalCrdSpec): Tightening {
  return {
    ...CREATE,
    preexisting: preexistingExpressions(oldSpec),
    unchangedSchemas: unchangedSchemas(spec, oldSpec),
    requireRecognizedConversionReviewVersion:
      oldSpec.conversion === undefined ||
      (oldSpec.conversion.conversionReviewVersions ?? []).length === 0 ||
      (oldSpec.conversion.conversionReviewVersions ?? []).some((v) => v === 'v1' || v === 'v1beta1'),
    requireImmutableNames: isCrdConditionTrue(old, CRD_CONDITIONS.established),
    requireOpenAPISchema:
      oldSpec.validation?.openAPIV3Schema !== undefined || oldSpec.versions.every((v) => v.schema?.openAPIV3Schema),
    allowInvalidCABundle: !isCrdConditionTrue(old, CRD_CONDITIONS.established),
  };
}

function validateSpec(spec: InternalCrdSpec, t: Tightening, opts: CrdValidationOptions, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const at = (...names: string[]) => names.reduce((p, n) => childPath(p, n), path);
  if (spec.group === '') errs.push(fieldErrors.required(at('group')));
  else {
    const msgs = isDNS1123Subdomain(spec.group);
    if (msgs.length > 0) errs.push(fieldErrors.invalid(at('group'), spec.group, msgs.join(',')));
    else if (spec.group.split('.').length < 2) {
      errs.push(fieldErrors.invalid(at('group'), spec.group, 'should be a domain with at least one dot'));
    }
  }
  if (spec.scope === '') errs.push(fieldErrors.required(at('scope')));
  else if (spec.scope !== 'Cluster' && spec.scope !== 'Namespaced') {
    errs.push(fieldErrors.notSupported(at('scope'), spec.scope, ['Cluster', 'Namespaced']));
  }
  if (t.requireOpenAPISchema && spec.validation?.openAPIV3Schema === undefined) {
    spec.versions.forEach((v, i) => {
      if (v.schema?.openAPIV3Schema === undefined) {
        errs.push(
          fieldErrors.required(
            childPath(indexPath(at('versions'), i), 'schema.openAPIV3Schema'),
            'schemas are required',
          ),
        );
      }
    });
  }
  if (specHasSchemaWith(spec, hasDefault) && spec.preserveUnknownFields) {
    errs.push(
      fieldErrors.invalid(at('preserveUnknownFields'), true, 'must be false in order to use defaults in the schema'),
    );
  }
  const versionsPath = at('versions');
  let storageCount = 0;
  const names = new Set<string>();
  let unique = true;
  spec.versions.forEach((v, i) => {
    if (v.storage) storageCount++;
    if (names.has(v.name)) unique = false;
    names.add(v.name);
    const vPath = indexPath(versionsPath, i);
    const msgs = isDNS1035Label(v.name);
    if (msgs.length > 0) errs.push(fieldErrors.invalid(childPath(vPath, 'name'), v.name, msgs.join(',')));
    errs.push(
      ...validateDeprecationWarning(v.deprecated, v.deprecationWarning, childPath(vPath, 'deprecationWarning')),
    );
    const statusEnabled = subresourcesForVersion(spec, v)?.status !== undefined;
    errs.push(
      ...validateVersionSchema(v.schema, statusEnabled, {
        path: childPath(vPath, 'schema'),
        spec,
        tightening: t,
        rules: opts.rules,
        rulesContext: { preexisting: t.preexisting, unchangedSchema: t.unchangedSchemas?.has(v.name) === true },
      }),
    );
    errs.push(...validateSubresources(v.subresources, childPath(vPath, 'subresources')));
    (v.additionalPrinterColumns ?? []).forEach((c, j) => {
      errs.push(...validateColumn(c, indexPath(childPath(vPath, 'additionalPrinterColumns'), j)));
    });
    if ((v.selectableFields ?? []).length > 0) {
      errs.push(...validateSelectableFields(v.selectableFields ?? [], v.schema?.openAPIV3Schema, vPath, 'version'));
    }
  });
  const perVersion = (field: 'schema' | 'subresources' | 'additionalPrinterColumns') =>
    spec.versions.some((v) =>
      field === 'additionalPrinterColumns' ? (v.additionalPrinterColumns ?? []).length > 0 : v[field] !== undefined,
    );
  if (spec.validation !== undefined && perVersion('schema')) {
    errs.push(fieldErrors.forbidden(at('validation'), 'top-level and per-version schemas are mutually exclusive'));
  }
  if (spec.subresources !== undefined && perVersion('subresources')) {
    errs.push(
      fieldErrors.forbidden(at('subresources'), 'top-level and per-version subresources are mutually exclusive'),
    );
  }
  if ((spec.additionalPrinterColumns ?? []).length > 0 && perVersion('additionalPrinterColumns')) {
    errs.push(
      fieldErrors.forbidden(
        at('additionalPrinterColumns'),
        'top-level and per-version additionalPrinterColumns are mutually exclusive',
      ),
    );
  }
  const shownVersions = goSharpVersions(spec.versions);
  const identical = (field: 'schema' | 'subresources' | 'additionalPrinterColumns') =>
    spec.versions.length > 0 &&
    spec.versions.every((v) => {
      const value = v[field];
      const present = field === 'additionalPrinterColumns' ? (value as unknown[] | undefined)?.length : value;
      return present && jsonEqual(value, spec.versions[0][field]);
    });
  if (identical('schema')) {
    errs.push(
      invalidShown(
        versionsPath,
        shownVersions,
        'per-version schemas may not all be set to identical values (top-level validation should be used instead)',
      ),
    );
  }
  if (identical('subresources')) {
    errs.push(
      invalidShown(
        versionsPath,
        shownVersions,
        'per-version subresources may not all be set to identical values (top-level subresources should be used instead)',
      ),
    );
  }
  if (identical('additionalPrinterColumns')) {
    errs.push(
      invalidShown(
        versionsPath,
        shownVersions,
        'per-version additionalPrinterColumns may not all be set to identical values (top-level additionalPrinterColumns should be used instead)',
      ),
    );
  }
  if (!unique) errs.push(invalidShown(versionsPath, shownVersions, 'must contain unique version names'));
  if (storageCount !== 1) {
    errs.push(invalidShown(versionsPath, shownVersions, 'must have exactly one version marked as storage version'));
  }
  if (spec.version !== '') {
    const msgs = isDNS1035Label(spec.version);
    if (msgs.length > 0) errs.push(fieldErrors.invalid(at('version'), spec.version, msgs.join(',')));
  }
  const names_ = spec.names;
  for (const key of ['plural', 'singular', 'kind', 'listKind'] as const) {
    if (!names_[key]) errs.push(fieldErrors.required(at('names', key)));
  }
  errs.push(...validateNames(names_, at('names')));
  const hasStatus =
    spec.subresources?.status !== undefined || spec.versions.some((v) => v.subresources?.status !== undefined);
  errs.push(
    ...validateVersionSchema(spec.validation, hasStatus, {
      path: at('validation'),
      spec,
      tightening: t,
      rules: opts.rules,
      rulesContext: { preexisting: t.preexisting, unchangedSchema: t.unchangedSchemas?.has(spec.version) === true },
    }),
  );
  errs.push(...validateSubresources(spec.subresources, at('subresources')));
  (spec.additionalPrinterColumns ?? []).forEach((c, i) => {
    errs.push(...validateColumn(c, indexPath(at('additionalPrinterColumns'), i)));
  });
  if ((spec.selectableFields ?? []).length > 0) {
    errs.push(...validateSelectableFields(spec.selectableFields ?? [], spec.validation?.openAPIV3Schema, path, 'spec'));
  }
  const conversion = spec.conversion;
  if (conversion && conversion.strategy !== 'None' && spec.preserveUnknownFields) {
    errs.push(
      fieldErrors.invalid(
        childPath(at('conversion'), 'strategy'),
        conversion.strategy,
        'must be None if spec.preserveUnknownFields is true',
      ),
    );
  }
  errs.push(
    ...validateConversion(conversion, {
      path: at('conversion'),
      requireRecognizedVersion: t.requireRecognizedConversionReviewVersion,
      allowInvalidCABundle: t.allowInvalidCABundle,
    }),
  );
  return errs;
}

function validateDeprecationWarning(deprecated: boolean, warning: string | undefined, path: string): FieldError[] {
  const msgs: string[] = [];
  if (!deprecated && warning !== undefined) msgs.push('can only be set for deprecated versions');
  if (warning !== undefined) {
    if (Buffer.byteLength(warning) > 256) msgs.push('must be <= 256 characters long');
    if (warning.length === 0) msgs.push('must not be an empty string');
    let index = 0;
    for (const ch of warning) {
      if (/\p{Cc}/u.test(ch)) {
        msgs.push(`must only contain printable UTF-8 characters; control character found at index ${index}`);
        break;
      }
      if (!/[\p{L}\p{M}\p{N}\p{P}\p{S} ]/u.test(ch)) {
        msgs.push(`must only contain printable UTF-8 characters; non-printable character found at index ${index}`);
        break;
      }
      index += Buffer.byteLength(ch);
    }
  }
  return msgs.map((m) => fieldErrors.invalid(path, warning ?? null, m));
}

/** kube's `ValidateCustomResourceDefinitionNames` (spec names and accepted names). */
export function validateNames(names: CustomResourceDefinitionNames, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const label = (key: 'plural' | 'singular') => {
    const v = names[key];
    if (typeof v !== 'string' || v === '') return;
    const msgs = isDNS1035Label(v);
    if (msgs.length > 0) errs.push(fieldErrors.invalid(childPath(path, key), v, msgs.join(',')));
  };
  label('plural');
  label('singular');
  for (const key of ['kind', 'listKind'] as const) {
    const v = names[key];
    if (typeof v !== 'string' || v === '') continue;
    const msgs = isDNS1035Label(v.toLowerCase());
    if (msgs.length > 0) {
      errs.push(
        fieldErrors.invalid(
          childPath(path, key),
          v,
          `may have mixed case, but should otherwise match: ${msgs.join(',')}`,
        ),
      );
    }
  }
  (names.shortNames ?? []).forEach((s, i) => {
    const msgs = isDNS1035Label(s);
    if (msgs.length > 0) errs.push(fieldErrors.invalid(indexPath(childPath(path, 'shortNames'), i), s, msgs.join(',')));
  });
  if (names.kind && names.kind === names.listKind) {
    errs.push(
      fieldErrors.invalid(childPath(path, 'listKind'), names.listKind, 'kind and listKind may not be the same'),
    );
  }
  (names.categories ?? []).forEach((c, i) => {
    const msgs = isDNS1035Label(c);
    if (msgs.length > 0) errs.push(fieldErrors.invalid(indexPath(childPath(path, 'categories'), i), c, msgs.join(',')));
  });
  return errs;
}

function validateStatus(crd: CustomResourceDefinition): FieldError[] {
  return validateNames(crd.status?.acceptedNames ?? {}, 'status.acceptedNames');
}

const goStringSlice = (v: readonly string[]) => `[]string{${v.map((s) => JSON.stringify(s)).join(', ')}}`;

function validateStoredVersions(crd: CustomResourceDefinition, spec: InternalCrdSpec): FieldError[] {
  const stored = Array.isArray(crd.status?.storedVersions) ? crd.status.storedVersions : [];
  const path = 'status.storedVersions';
  if (stored.length === 0) return [invalidShown(path, goStringSlice(stored), 'must have at least one stored version')];
  const errs: FieldError[] = [];
  const remaining = new Map(stored.map((v, i) => [v, i]));
  for (const v of spec.versions) {
    const found = remaining.has(v.name);
    if (v.storage && !found)
      errs.push(invalidShown(path, goStringSlice(stored), `must have the storage version ${v.name}`));
    if (found) remaining.delete(v.name);
  }
  for (const [v, i] of remaining) errs.push(fieldErrors.invalid(indexPath(path, i), v, 'must appear in spec.versions'));
  return errs;
}

/** The domain of label and annotation keys of a profile (`orch.io` / `kubernetes.io`). */
function keyDomain(domain: ApiDomain): string {
  return domain.key('', 'x').split('/')[0];
}

type ApprovalState = 'invalid' | 'approved' | 'bypassed' | 'missing';

/** The profile's own API groups (`*.orch.io`; `*.k8s.io` and `*.kubernetes.io`) need API approval. */
function isProtectedGroup(group: string, domain: ApiDomain): boolean {
  return [...new Set([domain.name, keyDomain(domain)])].some((d) => group === d || group.endsWith(`.${d}`));
}

/** `api-approved.<key domain>`. */
function approvalAnnotation(domain: ApiDomain): string {
  return `api-approved.${keyDomain(domain)}`;
}

/**
 * kube's `KubernetesAPIApprovalPolicyConformant` condition of a CRD in a protected group, or
 * undefined for other groups.
 */
export function apiApprovalCondition(
  crd: CustomResourceDefinition,
  domain: ApiDomain,
): { type: string; status: string; reason: string; message: string } | undefined {
  if (!isProtectedGroup(crd.spec?.group ?? '', domain)) return undefined;
  const name = approvalAnnotation(domain);
  const { state, reason } = approvalState(crd.metadata?.annotations?.[name], name);
  const type = CRD_CONDITIONS.apiApprovalPolicyConformant;
  switch (state) {
    case 'approved':
      return { type, status: 'True', reason: 'ApprovedAnnotation', message: reason };
    case 'bypassed':
      return { type, status: 'False', reason: 'UnapprovedAnnotation', message: reason };
    case 'missing':
      return { type, status: 'False', reason: 'MissingAnnotation', message: reason };
    default:
      return { type, status: 'False', reason: 'InvalidAnnotation', message: reason };
  }
}

function approvalState(annotation: string | undefined, name: string): { state: ApprovalState; reason: string } {
  const value = annotation ?? '';
  const see = 'see https://github.com/kubernetes/enhancements/pull/1111';
  if (value === '')
    return { state: 'missing', reason: `protected groups must have approval annotation "${name}", ${see}` };
  if (value.startsWith('unapproved')) return { state: 'bypassed', reason: `not approved: ${JSON.stringify(value)}` };
  if (/^[a-zA-Z][a-zA-Z0-9+.-]*:\/\/[^/\s]+/.test(value)) return { state: 'approved', reason: `approved in ${value}` };
  return {
    state: 'invalid',
    reason: `protected groups must have approval annotation "${name}" with either a URL or a reason starting with "unapproved", ${see}`,
  };
}

/**
 * kube's API approval: a CRD in a protected group (the profile's own domains) needs the
 * `api-approved.<domain>` annotation holding a URL or a reason starting with `unapproved`.
 */
function validateApiApproval(
  crd: CustomResourceDefinition,
  old: CustomResourceDefinition | undefined,
  domain: ApiDomain,
): FieldError[] {
  if (!isProtectedGroup(crd.spec?.group ?? '', domain)) return [];
  const name = approvalAnnotation(domain);
  const now = approvalState(crd.metadata?.annotations?.[name], name);
  if (old && approvalState(old.metadata?.annotations?.[name], name).state === now.state) return [];
  const path = keyPath('metadata.annotations', name);
  switch (now.state) {
    case 'missing':
      return [fieldErrors.required(path, now.reason)];
    case 'approved':
    case 'bypassed':
      return [];
    default:
      return [fieldErrors.invalid(path, crd.metadata?.annotations?.[name] ?? '', now.reason)];
  }
}

function validatePreserveUnknownFields(spec: InternalCrdSpec, old: InternalCrdSpec | undefined): FieldError[] {
  if (old?.preserveUnknownFields) return [];
  if (!spec.preserveUnknownFields) return [];
  return [
    fieldErrors.invalid(
      'spec.preserveUnknownFields',
      true,
      'cannot set to true, set x-kubernetes-preserve-unknown-fields to true in spec.versions[*].schema instead',
    ),
  ];
}

import { compareSemVer, parseSemVer, type SemVer, ZERO_SEMVER } from '../../util/semver.js';
import { type ApiDomain, ORCH_DOMAIN } from '../api-domain.js';
import { type BuiltinResourceDefinition, STANDARD_VERBS } from '../meta/builtin-definition.js';
import { type FieldError, fieldErrors } from '../meta/field-error.js';
import { isConfigMapKey, type NameValidator } from '../meta/name-validation.js';
import { nativeValidationSchema } from '../meta/native-validation-schema.js';
import { schemaStrategy } from '../meta/resource-strategy.js';
import type { ApiObject } from '../object.js';
import { AGE_SPEC, declarativeTableColumns } from '../table/declarative-columns.js';
import type { TableColumns } from '../table/table-types.js';
import { leaseCandidateSchema } from './coordination-v1alpha2-schemas.js';
import { validateLeaseStrategy } from './lease.js';

export interface LeaseCandidateSpec {
  leaseName?: string;
  /** MicroTime. */
  pingTime?: string;
  /** MicroTime. */
  renewTime?: string;
  binaryVersion?: string;
  emulationVersion?: string;
  strategy?: string;
}

export interface LeaseCandidate extends ApiObject {
  spec?: LeaseCandidateSpec;
}

/** kube's `ValidLeaseCandidateName`: a ConfigMap key (so `<host>_<uuid>` identities fit). */
const leaseCandidateName: NameValidator = (name) => isConfigMapKey(name);

/** The strategy kube's election controller implements. */
export const OLDEST_EMULATION_VERSION = 'OldestEmulationVersion';

/**
 * kube's `ValidateLeaseCandidateSpec` (v1.32, v1alpha2): `leaseName`, `binaryVersion` and
 * `strategy` required; versions are strict semantic versions with `binaryVersion` at least
 * `emulationVersion`; `OldestEmulationVersion` needs `emulationVersion`.
 */
export function validateLeaseCandidateSpec(spec: LeaseCandidateSpec | undefined): FieldError[] {
  const s = spec ?? {};
  const errs: FieldError[] = [];
  if (!s.leaseName) errs.push(fieldErrors.required('spec.leaseName'));
  let ev: SemVer = ZERO_SEMVER;
  if (s.emulationVersion) {
    const parsed = parseSemVer(s.emulationVersion);
    if (parsed) ev = parsed;
    else
      errs.push(fieldErrors.invalid('spec.emulationVersion', s.emulationVersion, 'must be a valid semantic version'));
  }
  let bv: SemVer = ZERO_SEMVER;
  if (!s.binaryVersion) errs.push(fieldErrors.required('spec.binaryVersion'));
  else {
    const parsed = parseSemVer(s.binaryVersion);
    if (parsed) bv = parsed;
    else errs.push(fieldErrors.invalid('spec.binaryVersion', s.binaryVersion, 'must be a valid semantic version'));
  }
  if (s.binaryVersion && s.emulationVersion && compareSemVer(bv, ev) < 0) {
    errs.push(
      fieldErrors.invalid('spec.binaryVersion', s.binaryVersion, 'must be greater than or equal to `emulationVersion`'),
    );
  }
  if (!s.strategy) errs.push(fieldErrors.required('spec.strategy'));
  else {
    if (s.strategy === OLDEST_EMULATION_VERSION && compareSemVer(ev, ZERO_SEMVER) === 0) {
      errs.push(
        fieldErrors.required('spec.emulationVersion', "must be specified when `strategy` is 'OldestEmulationVersion'"),
      );
    }
    errs.push(...validateLeaseStrategy(s.strategy));
  }
  return errs;
}

/** kube's `ValidateLeaseCandidateSpecUpdate`: `leaseName` is immutable. */
function validateLeaseCandidateUpdate(lc: LeaseCandidate, old: LeaseCandidate): FieldError[] {
  const errs = validateLeaseCandidateSpec(lc.spec);
  if ((lc.spec?.leaseName ?? '') !== (old.spec?.leaseName ?? '')) {
    errs.push(fieldErrors.invalid('spec.leaseName', lc.spec?.leaseName ?? '', 'field is immutable'));
  }
  return errs;
}

/** kube's printer: `Name`, `LeaseName`, `BinaryVersion`, `EmulationVersion`, `Age`. */
function leaseCandidateTableColumns(): TableColumns {
  return declarativeTableColumns([
    {
      name: 'LeaseName',
      type: 'string',
      description: 'The Lease the candidate contends for.',
      jsonPath: '.spec.leaseName',
      zero: '',
    },
    {
      name: 'BinaryVersion',
      type: 'string',
      description: "The candidate's binary version.",
      jsonPath: '.spec.binaryVersion',
      zero: '',
    },
    {
      name: 'EmulationVersion',
      type: 'string',
      description: 'The version the candidate emulates.',
      jsonPath: '.spec.emulationVersion',
      zero: '',
    },
    AGE_SPEC,
  ]);
}

/**
 * `coordination.<domain>/v1alpha2` `leasecandidates` (kube v1.32): the candidates coordinated
 * leader election chooses from. An alpha version: served only with the `CoordinatedLeaderElection`
 * gate on and the version enabled through `--runtime-config`.
 */
export function leaseCandidateResource(domain: ApiDomain = ORCH_DOMAIN): BuiltinResourceDefinition {
  return {
    group: domain.group('coordination'),
    version: 'v1alpha2',
    kind: 'LeaseCandidate',
    listKind: 'LeaseCandidateList',
    resource: 'leasecandidates',
    singular: 'leasecandidate',
    namespaced: true,
    shortNames: [],
    categories: [],
    verbs: STANDARD_VERBS,
    subresources: [],
    allowCreateOnUpdate: true,
    hasGeneration: false,
    schema: leaseCandidateSchema,
    tableColumns: leaseCandidateTableColumns(),
    featureGate: 'CoordinatedLeaderElection',
    listDescription: 'A list of lease candidates.',
    listItemsDescription: 'The lease candidates.',
    strategy: schemaStrategy<LeaseCandidate>({
      schema: nativeValidationSchema(leaseCandidateSchema),
      namespaced: true,
      nameValidator: leaseCandidateName,
      validateCreate: (lc) => validateLeaseCandidateSpec(lc.spec),
      validateUpdate: validateLeaseCandidateUpdate,
    }),
  };
}

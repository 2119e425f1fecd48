import { compareSemVer, parseSemVer, type SemVer, ZERO_SEMVER } from '../../util/semver.js';
import { type ApiDomain, ORCH_DOMAIN } from '../api-domain.js';
import { type BuiltinResourceDefinition, STANDARD_VERBS } from '../meta/builtin-definition.js';
import { type FieldError, fieldErrors } from '../meta/field-error.js';
import { isConfigMapKey, type NameValidator } from '../meta/name-validation.js';
import {
  API_CONVENTIONS,
  apiVersionField,
  kindField,
  microTimeSchema,
  objectMetaField,
} from '../meta/object-meta-schema.js';
import { schemaStrategy } from '../meta/resource-strategy.js';
import type { ApiObject } from '../object.js';
import { fieldOf, namedType, pb, stringField } from '../schema/named.js';
import type { Schema } from '../schema/schema.js';
import {
  AGE_COLUMN,
  column,
  describeField,
  NAME_COLUMN,
  objectName,
  stringAt,
  valueAt,
} from '../table/column-helpers.js';
import { translateTimestampSince } from '../table/human-duration.js';
import type { TableColumns } from '../table/table-types.js';
import { validateLeaseStrategy } from './lease.js';

const COORDINATION_V1ALPHA2 = 'io.orch.api.coordination.v1alpha2';

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

const leaseCandidateSpecSchema: Schema = namedType(
  `${COORDINATION_V1ALPHA2}.LeaseCandidateSpec`,
  'LeaseCandidateSpec is a specification of a Lease.',
  {
    type: 'object',
    properties: {
      leaseName: stringField(
        'LeaseName is the name of the lease for which this candidate is contending. This field is immutable.',
        pb(1),
      ),
      pingTime: fieldOf(
        microTimeSchema,
        'PingTime is the last time that the server has requested the LeaseCandidate to renew. It is only done during leader election to check if any LeaseCandidates have become ineligible. When PingTime is updated, the LeaseCandidate will respond by updating RenewTime.',
        pb(2),
      ),
      renewTime: fieldOf(
        microTimeSchema,
        'RenewTime is the time that the LeaseCandidate was last updated. Any time a Lease needs to do leader election, the PingTime field is updated to signal to the LeaseCandidate that they should update the RenewTime. Old LeaseCandidate objects are also garbage collected if it has been hours since the last renew. The PingTime field is updated regularly to prevent garbage collection for still active LeaseCandidates.',
        pb(3),
      ),
      binaryVersion: stringField(
        'BinaryVersion is the binary version. It must be in a semver format without leading `v`. This field is required.',
        pb(4),
      ),
      emulationVersion: stringField(
        'EmulationVersion is the emulation version. It must be in a semver format without leading `v`. EmulationVersion must be less than or equal to BinaryVersion. This field is required when strategy is "OldestEmulationVersion"',
        pb(5),
      ),
      strategy: stringField(
        'Strategy is the strategy that coordinated leader election will use for picking the leader. If multiple candidates for the same Lease return different strategies, the strategy provided by the candidate with the latest BinaryVersion will be used. If there is still conflict, this is a user error and coordinated leader election will not operate the Lease until resolved. (Alpha) Using this field requires the CoordinatedLeaderElection feature gate to be enabled.',
        pb(6),
      ),
    },
  },
);

export const leaseCandidateSchema: Schema = namedType(
  `${COORDINATION_V1ALPHA2}.LeaseCandidate`,
  'LeaseCandidate defines a candidate for a Lease object. Candidates are created such that coordinated leader election will pick the best leader from the list of candidates.',
  {
    type: 'object',
    properties: {
      apiVersion: apiVersionField,
      kind: kindField,
      metadata: objectMetaField(`More info: ${API_CONVENTIONS}#metadata`),
      spec: fieldOf(
        leaseCandidateSpecSchema,
        `spec contains the specification of the Lease. More info: ${API_CONVENTIONS}#spec-and-status`,
        pb(2),
      ),
    },
  },
);

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
function leaseCandidateTableColumns(schema: Schema): TableColumns {
  return Object.freeze({
    columnDefinitions: Object.freeze([
      NAME_COLUMN,
      column('LeaseName', 'string', describeField(schema, 'spec', 'leaseName')),
      column('BinaryVersion', 'string', describeField(schema, 'spec', 'binaryVersion')),
      column('EmulationVersion', 'string', describeField(schema, 'spec', 'emulationVersion')),
      AGE_COLUMN,
    ]),
    cells: (obj: ApiObject, now: Date) => [
      objectName(obj),
      stringAt(obj, 'spec', 'leaseName'),
      stringAt(obj, 'spec', 'binaryVersion'),
      stringAt(obj, 'spec', 'emulationVersion'),
      translateTimestampSince(valueAt(obj, 'metadata', 'creationTimestamp'), now),
    ],
  });
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
    tableColumns: leaseCandidateTableColumns(leaseCandidateSchema),
    featureGate: 'CoordinatedLeaderElection',
    listDescription: 'LeaseCandidateList is a list of Lease objects.',
    listItemsDescription: 'items is a list of schema objects.',
    listMetadataDescription: `Standard list metadata. More info: ${API_CONVENTIONS}#metadata`,
    strategy: schemaStrategy<LeaseCandidate>({
      schema: leaseCandidateSchema,
      namespaced: true,
      nameValidator: leaseCandidateName,
      validateCreate: (lc) => validateLeaseCandidateSpec(lc.spec),
      validateUpdate: validateLeaseCandidateUpdate,
    }),
  };
}

import { type ApiDomain, ORCH_DOMAIN } from '../api-domain.js';
import { type BuiltinResourceDefinition, STANDARD_VERBS } from '../meta/builtin-definition.js';
import { type FieldError, fieldErrors } from '../meta/field-error.js';
import { isQualifiedName, nameIsDNSSubdomain } from '../meta/name-validation.js';
import {
  API_CONVENTIONS,
  apiVersionField,
  kindField,
  microTimeSchema,
  objectMetaField,
} from '../meta/object-meta-schema.js';
import { schemaStrategy } from '../meta/resource-strategy.js';
import type { ApiObject } from '../object.js';
import { fieldOf, int32Field, namedType, pb, pbPointer, stringField } from '../schema/named.js';
import type { Schema } from '../schema/schema.js';
import { leaseTableColumns } from '../table/builtin-columns.js';

/** API group of leases. */
const COORDINATION_V1 = 'io.orch.api.coordination.v1';
/** The coordinated-leader-election strategies the server knows. */
export const LEASE_STRATEGIES: readonly string[] = ['OldestEmulationVersion'];

export interface LeaseSpec {
  holderIdentity?: string;
  leaseDurationSeconds?: number;
  /** MicroTime. */
  acquireTime?: string;
  /** MicroTime. */
  renewTime?: string;
  leaseTransitions?: number;
  strategy?: string;
  preferredHolder?: string;
}

export interface Lease extends ApiObject {
  spec?: LeaseSpec;
}

const leaseSpecSchema: Schema = namedType(`${COORDINATION_V1}.LeaseSpec`, 'LeaseSpec is a specification of a Lease.', {
  type: 'object',
  properties: {
    holderIdentity: stringField(
      'holderIdentity contains the identity of the holder of a current lease. If Coordinated Leader Election is used, the holder identity must be equal to the elected LeaseCandidate.metadata.name field.',
      pbPointer(1),
    ),
    leaseDurationSeconds: int32Field(
      'leaseDurationSeconds is a duration that candidates for a lease need to wait to force acquire it. This is measured against the time of last observed renewTime.',
      pbPointer(2),
    ),
    acquireTime: fieldOf(microTimeSchema, 'acquireTime is a time when the current lease was acquired.', pb(3)),
    renewTime: fieldOf(
      microTimeSchema,
      'renewTime is a time when the current holder of a lease has last updated the lease.',
      pb(4),
    ),
    leaseTransitions: int32Field(
      'leaseTransitions is the number of transitions of a lease between holders.',
      pbPointer(5),
    ),
    strategy: stringField(
      'Strategy indicates the strategy for picking the leader for coordinated leader election. If the field is not specified, there is no active coordination for this lease. (Alpha) Using this field requires the CoordinatedLeaderElection feature gate to be enabled.',
      pbPointer(6),
    ),
    preferredHolder: stringField(
      'PreferredHolder signals to a lease holder that the lease has a more optimal holder and should be given up. This field can only be set if Strategy is also set.',
      pbPointer(7),
    ),
  },
});

export const leaseSchema: Schema = namedType(`${COORDINATION_V1}.Lease`, 'Lease defines a lease concept.', {
  type: 'object',
  properties: {
    apiVersion: apiVersionField,
    kind: kindField,
    metadata: objectMetaField(`More info: ${API_CONVENTIONS}#metadata`),
    spec: fieldOf(
      leaseSpecSchema,
      `spec contains the specification of the Lease. More info: ${API_CONVENTIONS}#spec-and-status`,
      pb(2),
    ),
  },
});

/** kube's `ValidateLeaseSpec`. */
export function validateLeaseSpec(spec: LeaseSpec | undefined): FieldError[] {
  const errs: FieldError[] = [];
  if (!spec) return errs;
  if (spec.leaseDurationSeconds !== undefined && spec.leaseDurationSeconds <= 0) {
    errs.push(fieldErrors.invalid('spec.leaseDurationSeconds', spec.leaseDurationSeconds, 'must be greater than 0'));
  }
  if (spec.leaseTransitions !== undefined && spec.leaseTransitions < 0) {
    errs.push(
      fieldErrors.invalid('spec.leaseTransitions', spec.leaseTransitions, 'must be greater than or equal to 0'),
    );
  }
  if (spec.strategy !== undefined) errs.push(...validateLeaseStrategy(spec.strategy));
  if (spec.preferredHolder && !spec.strategy) {
    errs.push(fieldErrors.forbidden('spec.preferredHolder', 'may only be specified if `strategy` is defined'));
  }
  return errs;
}

/**
 * A strategy is a known name or a domain-prefixed qualified name (Lease and LeaseCandidate).
 * kube reports these under `spec.strategy.strategy` (its validator appends the field name
 * twice); we keep that path.
 */
export function validateLeaseStrategy(strategy: string): FieldError[] {
  const path = 'spec.strategy.strategy';
  if (strategy.split('/').length === 1) {
    return LEASE_STRATEGIES.includes(strategy) ? [] : [fieldErrors.notSupported(path, strategy, LEASE_STRATEGIES)];
  }
  return isQualifiedName(strategy).map((msg) => fieldErrors.invalid(path, strategy, msg));
}

export interface LeaseOptions {
  /**
   * Feature gate `CoordinatedLeaderElection` (alpha, off by default): when off, `spec.strategy`
   * and `spec.preferredHolder` are dropped on create, and on update unless already in use.
   */
  readonly coordinatedLeaderElection?: boolean;
}

function dropDisabledFields(lease: Lease, old: Lease | undefined, enabled: boolean): void {
  if (enabled || !lease.spec || typeof lease.spec !== 'object') return;
  if (old?.spec?.strategy === undefined) delete lease.spec.strategy;
  if (old?.spec?.preferredHolder === undefined) delete lease.spec.preferredHolder;
}

/** `coordination.<domain>/v1` `leases`: PUT of a missing lease creates it. */
export function leaseResource(options: LeaseOptions = {}, domain: ApiDomain = ORCH_DOMAIN): BuiltinResourceDefinition {
  const enabled = options.coordinatedLeaderElection ?? false;
  return {
    group: domain.group('coordination'),
    version: 'v1',
    kind: 'Lease',
    listKind: 'LeaseList',
    resource: 'leases',
    singular: 'lease',
    namespaced: true,
    shortNames: [],
    categories: [],
    verbs: STANDARD_VERBS,
    subresources: [],
    allowCreateOnUpdate: true,
    hasGeneration: false,
    schema: leaseSchema,
    tableColumns: leaseTableColumns(leaseSchema),
    listDescription: 'LeaseList is a list of Lease objects.',
    listItemsDescription: 'items is a list of schema objects.',
    listMetadataDescription: `Standard list metadata. More info: ${API_CONVENTIONS}#metadata`,
    strategy: schemaStrategy<Lease>({
      schema: leaseSchema,
      namespaced: true,
      nameValidator: nameIsDNSSubdomain,
      prepareForCreate: (lease) => dropDisabledFields(lease, undefined, enabled),
      prepareForUpdate: (lease, old) => dropDisabledFields(lease, old, enabled),
      validateCreate: (lease) => validateLeaseSpec(lease.spec),
      validateUpdate: (lease) => validateLeaseSpec(lease.spec),
    }),
  };
}

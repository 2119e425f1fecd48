import { type ApiDomain, ORCH_DOMAIN } from '../api-domain.js';
import { type BuiltinResourceDefinition, STANDARD_VERBS } from '../meta/builtin-definition.js';
import { type FieldError, fieldErrors } from '../meta/field-error.js';
import { isQualifiedName, nameIsDNSSubdomain } from '../meta/name-validation.js';
import { nativeValidationSchema } from '../meta/native-validation-schema.js';
import { schemaStrategy } from '../meta/resource-strategy.js';
import type { ApiObject } from '../object.js';
import { leaseTableColumns } from '../table/builtin-columns.js';
import { leaseSchema } from './coordination-v1-schemas.js';

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
    tableColumns: leaseTableColumns(),
    listDescription: 'A list of leases.',
    listItemsDescription: 'The leases.',
    strategy: schemaStrategy<Lease>({
      schema: nativeValidationSchema(leaseSchema),
      namespaced: true,
      nameValidator: nameIsDNSSubdomain,
      prepareForCreate: (lease) => dropDisabledFields(lease, undefined, enabled),
      prepareForUpdate: (lease, old) => dropDisabledFields(lease, old, enabled),
      validateCreate: (lease) => validateLeaseSpec(lease.spec),
      validateUpdate: (lease) => validateLeaseSpec(lease.spec),
    }),
  };
}

import type { ApiDomain } from '../api-domain.js';
import { type FieldError, fieldErrors } from '../meta/field-error.js';
import { jsonEqual } from '../schema/json-value.js';
import { preserveZeroSharesAnnotation } from './apf-bootstrap.js';
import { mandatoryPriorityLevelFacts } from './apf-bootstrap-facts.js';
import { validateFlowControlStatus } from './flow-schema-validation.js';
import {
  EXEMPT,
  type LimitedPriorityLevelConfiguration,
  type PriorityLevelConfiguration,
  type QueuingConfiguration,
} from './flowcontrol-types.js';

const ENABLEMENTS: readonly string[] = ['Exempt', 'Limited'];
const LIMIT_RESPONSE_TYPES: readonly string[] = ['Queue', 'Reject'];
const MAX_QUEUES = 10_000_000;
/** Bits of hash shuffle sharding may use (kube's `shufflesharding.MaxHashBits`). */
const MAX_HASH_BITS = 60;

/**
 * kube's `ValidatePriorityLevelConfiguration` beyond metadata, as v1.32 runs it for v1 requests
 * (a limited level may have 0 nominal concurrency shares): the round-trip annotation is refused,
 * `exempt` is the only Exempt level, the mandatory levels keep their fixed spec (the `exempt`
 * level's `spec.exempt` excepted), queuing parameters fit shuffle sharding, status conditions
 * are unique.
 */
export function validatePriorityLevel(pl: PriorityLevelConfiguration, domain: ApiDomain): FieldError[] {
  const errs: FieldError[] = [];
  const roundTrip = preserveZeroSharesAnnotation(domain);
  if (pl.metadata.annotations && roundTrip in pl.metadata.annotations) {
    errs.push(fieldErrors.forbidden('metadata.annotations', `annotation '${roundTrip}' is forbidden`));
  }
  const name = pl.metadata.name ?? '';
  const spec = pl.spec ?? {};
  const type = spec.type ?? '';
  if ((name === EXEMPT) !== (type === 'Exempt')) {
    errs.push(fieldErrors.invalid('spec.type', type, "type must be 'Exempt' if and only if name is 'exempt'"));
  }
  switch (type) {
    case 'Exempt':
      if (spec.limited) errs.push(fieldErrors.forbidden('spec.limited', 'must be nil if the type is not Limited'));
      if (spec.exempt) {
        const { nominalConcurrencyShares: shares, lendablePercent: lendable } = spec.exempt;
        if (typeof shares === 'number' && shares < 0) {
          errs.push(
            fieldErrors.invalid('spec.exempt.nominalConcurrencyShares', shares, 'must be a non-negative integer'),
          );
        }
        if (typeof lendable === 'number' && (lendable < 0 || lendable > 100)) {
          errs.push(
            fieldErrors.invalid('spec.exempt.lendablePercent', lendable, 'must be between 0 and 100, inclusive'),
          );
        }
      }
      break;
    case 'Limited':
      if (spec.exempt) errs.push(fieldErrors.forbidden('spec.exempt', 'must be nil if the type is Limited'));
      if (!spec.limited) errs.push(fieldErrors.required('spec.limited', 'must not be empty when type is Limited'));
      else errs.push(...validateLimited(spec.limited));
      break;
    default:
      errs.push(fieldErrors.notSupported('spec.type', type, ENABLEMENTS));
  }
  errs.push(...validateMandatory(name, spec));
  errs.push(...validateFlowControlStatus(pl.status?.conditions));
  return errs;
}

function validateMandatory(name: string, spec: NonNullable<PriorityLevelConfiguration['spec']>): FieldError[] {
  const mandatory = mandatoryPriorityLevelFacts().find((f) => f.name === name);
  if (!mandatory) return [];
  if (name === EXEMPT) {
    const have = structuredClone(spec);
    if (have.exempt) have.exempt = structuredClone(mandatory.spec.exempt);
    const want = structuredClone(mandatory.spec);
    if (!have.exempt) delete want.exempt;
    return jsonEqual(have, want)
      ? []
      : [
          fieldErrors.invalid(
            'spec',
            spec,
            `spec of '${name}' except the 'spec.exempt' field must equal the fixed value`,
          ),
        ];
  }
  return jsonEqual(spec, mandatory.spec)
    ? []
    : [fieldErrors.invalid('spec', spec, `spec of '${name}' must equal the fixed value`)];
}

function validateLimited(l: LimitedPriorityLevelConfiguration): FieldError[] {
  const errs: FieldError[] = [];
  const shares = l.nominalConcurrencyShares ?? 0;
  if (shares < 0)
    errs.push(fieldErrors.invalid('spec.limited.nominalConcurrencyShares', shares, 'must be a non-negative integer'));
  const response = l.limitResponse ?? {};
  switch (response.type ?? '') {
    case 'Reject':
      if (response.queuing) {
        errs.push(
          fieldErrors.forbidden(
            'spec.limited.limitResponse.queuing',
            'must be nil if limited.limitResponse.type is not Limited',
          ),
        );
      }
      break;
    case 'Queue':
      if (!response.queuing) {
        errs.push(
          fieldErrors.required(
            'spec.limited.limitResponse.queuing',
            'must not be empty if limited.limitResponse.type is Limited',
          ),
        );
      } else errs.push(...validateQueuing(response.queuing, 'spec.limited.limitResponse.queuing'));
      break;
    default:
      errs.push(fieldErrors.notSupported('spec.limited.limitResponse.type', response.type ?? '', LIMIT_RESPONSE_TYPES));
  }
  if (typeof l.lendablePercent === 'number' && (l.lendablePercent < 0 || l.lendablePercent > 100)) {
    errs.push(
      fieldErrors.invalid('spec.limited.lendablePercent', l.lendablePercent, 'must be between 0 and 100, inclusive'),
    );
  }
  if (typeof l.borrowingLimitPercent === 'number' && l.borrowingLimitPercent < 0) {
    errs.push(
      fieldErrors.invalid(
        'spec.limited.borrowingLimitPercent',
        l.borrowingLimitPercent,
        'if specified, must be a non-negative integer',
      ),
    );
  }
  return errs;
}

/**
 * kube's `RequiredEntropyBits(deckSize, handSize)`: bits needed to deal a hand,
 * `ceil(log2(deckSize) * handSize)`.
 */
function requiredEntropyBits(deckSize: number, handSize: number): number {
  return Math.ceil(Math.log2(deckSize) * handSize);
}

function validateQueuing(q: QueuingConfiguration, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const limit = q.queueLengthLimit ?? 0;
  const queues = q.queues ?? 0;
  const handSize = q.handSize ?? 0;
  if (limit <= 0) errs.push(fieldErrors.invalid(`${path}.queueLengthLimit`, limit, 'must be positive'));
  if (queues <= 0) errs.push(fieldErrors.invalid(`${path}.queues`, queues, 'must be positive'));
  else if (queues > MAX_QUEUES)
    errs.push(fieldErrors.invalid(`${path}.queues`, queues, `must not be greater than ${MAX_QUEUES}`));
  if (handSize <= 0) errs.push(fieldErrors.invalid(`${path}.handSize`, handSize, 'must be positive'));
  else if (handSize > queues)
    errs.push(fieldErrors.invalid(`${path}.handSize`, handSize, `should not be greater than queues (${queues})`));
  else if (requiredEntropyBits(queues, handSize) > MAX_HASH_BITS) {
    errs.push(
      fieldErrors.invalid(
        `${path}.handSize`,
        handSize,
        `required entropy bits of deckSize ${queues} and handSize ${handSize} should not be greater than ${MAX_HASH_BITS}`,
      ),
    );
  }
  return errs;
}

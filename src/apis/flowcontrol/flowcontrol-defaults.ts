import type { FlowSchema, PriorityLevelConfiguration } from './flowcontrol-types.js';

/** kube's v1 flowcontrol defaults. Each mutates its object. */

const DEFAULT_MATCHING_PRECEDENCE = 1000;
const DEFAULT_NOMINAL_CONCURRENCY_SHARES = 30;
const DEFAULT_HAND_SIZE = 8;
const DEFAULT_QUEUES = 64;
const DEFAULT_QUEUE_LENGTH_LIMIT = 50;

/** `spec.matchingPrecedence` 1000 when unset or 0. */
export function defaultFlowSchema(fs: FlowSchema): void {
  if (!fs.spec) return;
  if (!fs.spec.matchingPrecedence) fs.spec.matchingPrecedence = DEFAULT_MATCHING_PRECEDENCE;
}

/**
 * `exempt`: shares and lendable percent 0 when unset. `limited`: shares 30 only when unset (an
 * explicit 0 stays), lendable percent 0 when unset; its queuing: hand size 8, 64 queues and a
 * queue length limit of 50 for each unset or 0.
 */
export function defaultPriorityLevel(pl: PriorityLevelConfiguration): void {
  const exempt = pl.spec?.exempt;
  if (exempt) {
    exempt.nominalConcurrencyShares ??= 0;
    exempt.lendablePercent ??= 0;
  }
  const limited = pl.spec?.limited;
  if (!limited) return;
  if (limited.nominalConcurrencyShares === undefined || limited.nominalConcurrencyShares === null) {
    limited.nominalConcurrencyShares = DEFAULT_NOMINAL_CONCURRENCY_SHARES;
  }
  limited.lendablePercent ??= 0;
  const queuing = limited.limitResponse?.queuing;
  if (queuing) {
    if (!queuing.handSize) queuing.handSize = DEFAULT_HAND_SIZE;
    if (!queuing.queues) queuing.queues = DEFAULT_QUEUES;
    if (!queuing.queueLengthLimit) queuing.queueLengthLimit = DEFAULT_QUEUE_LENGTH_LIMIT;
  }
}

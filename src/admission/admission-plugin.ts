import type { AdmissionAttributes, Operation } from './admission-attributes.js';

/**
 * One admission plugin. `admit` (mutating) may change `a.object`; `validate` may only reject.
 * Either rejects by throwing: a `StatusError` is returned to the client as it is, any other
 * error becomes a 403 Forbidden naming the object, as kube's admission chain reports it. Both
 * must stop waiting when `signal` aborts.
 */
export interface AdmissionPlugin {
  readonly name: string;
  handles(op: Operation): boolean;
  admit?(a: AdmissionAttributes, signal: AbortSignal): Promise<void>;
  validate?(a: AdmissionAttributes, signal: AbortSignal): Promise<void>;
}

/** The mutating and validating chains the registry calls on every write. */
export interface Admission {
  /** Runs every mutating plugin that handles the operation, in order. */
  admit(a: AdmissionAttributes, signal: AbortSignal): Promise<void>;
  /** Runs every validating plugin that handles the operation, in order. */
  validate(a: AdmissionAttributes, signal: AbortSignal): Promise<void>;
}

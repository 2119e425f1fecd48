import { type FieldError, fieldErrors, formatFieldError, invalidShown } from '../../apis/meta/field-error.js';
import { formatGoDurationNanos, parseGoDurationNanos } from '../../util/go-duration.js';

/**
 * component-base's `LeaderElectionConfiguration` as kube-controller-manager reads it (the
 * `leaderElection` section of its configuration and the `--leader-elect*` flags). Durations are
 * Go duration strings (`15s`, `1m30s`), the serialized form of `metav1.Duration`.
 */
export interface LeaderElectionConfiguration {
  /** Start a leader election client and gain leadership before running the controllers. */
  readonly leaderElect: boolean;
  /** How long candidates wait after observing a renewal before they may take the lease over. */
  readonly leaseDuration: string;
  /** How long the leader keeps retrying to renew before it stops leading; below `leaseDuration`. */
  readonly renewDeadline: string;
  /** The wait between attempts to acquire or renew. */
  readonly retryPeriod: string;
  /** The kind of lock: only `leases` (kube v1.32 removed the others). */
  readonly resourceLock: string;
  readonly resourceName: string;
  readonly resourceNamespace: string;
}

/** The only lock kube v1.32 supports. */
export const LEASES_RESOURCE_LOCK = 'leases';
/** Locks kube supported once; naming one tells the user to migrate. */
const REMOVED_LOCKS = ['endpoints', 'configmaps', 'endpointsleases', 'configmapsleases'];

/** client-go's `JitterFactor`: waits between acquire attempts are `retryPeriod × [1, 2.2)`. */
export const JITTER_FACTOR = 1.2;

/**
 * kube's recommended defaults (`RecommendedDefaultLeaderElectionConfiguration` with the lease lock
 * kube-controller-manager uses): 15 s, 10 s, 2 s; the lock names the caller's component.
 */
export function defaultLeaderElectionConfiguration(resource: {
  readonly name: string;
  readonly namespace: string;
}): LeaderElectionConfiguration {
  return {
    leaderElect: true,
    leaseDuration: '15s',
    renewDeadline: '10s',
    retryPeriod: '2s',
    resourceLock: LEASES_RESOURCE_LOCK,
    resourceName: resource.name,
    resourceNamespace: resource.namespace,
  };
}

/** A validated configuration with its durations in milliseconds. */
export interface LeaderElectionTimings {
  readonly leaseDurationMs: number;
  readonly renewDeadlineMs: number;
  readonly retryPeriodMs: number;
}

/** Thrown for a configuration that fails validation; `problems` lists every error. */
export class LeaderElectionConfigError extends Error {
  constructor(readonly problems: readonly string[]) {
    super(`invalid leader election configuration: ${problems.join('; ')}`);
    this.name = 'LeaderElectionConfigError';
  }
}

const NANOS_PER_MS = 1_000_000n;
const NANOS_PER_SECOND = 1_000_000_000n;

type DurationField = 'leaseDuration' | 'renewDeadline' | 'retryPeriod';

/**
 * kube's `ValidateLeaderElectionConfiguration` (nothing is checked while `leaderElect` is false),
 * with the checks client-go's `NewLeaderElector` and `resourcelock.New` make at start-up, as
 * field errors under `path`: unparsable durations, non-positive durations, `leaseDuration` not
 * above `renewDeadline`, `renewDeadline` not above `retryPeriod × 1.2`, missing lock fields and a
 * lock other than `leases`. One rule is Orch's own: `leaseDuration` must be whole seconds, because
 * the Lease stores whole seconds and a truncated lease would let a candidate take over before the
 * holder's `renewDeadline` has passed. Every problem is returned, in kube's order.
 */
export function validateLeaderElectionConfiguration(
  cfg: LeaderElectionConfiguration,
  path = 'leaderElection',
): FieldError[] {
  const errs: FieldError[] = [];
  if (!cfg.leaderElect) return errs;
  const nanos: Partial<Record<DurationField, bigint>> = {};
  for (const f of ['leaseDuration', 'renewDeadline', 'retryPeriod'] as const) {
    const parsed = parseGoDurationNanos(cfg[f]);
    if (typeof parsed === 'bigint') nanos[f] = parsed;
    else errs.push(fieldErrors.invalid(`${path}.${f}`, cfg[f], parsed.error));
  }
  const shown = (n: bigint) => formatGoDurationNanos(n);
  const { leaseDuration, renewDeadline, retryPeriod } = nanos;
  for (const [f, n] of [
    ['leaseDuration', leaseDuration],
    ['renewDeadline', renewDeadline],
    ['retryPeriod', retryPeriod],
  ] as const) {
    if (n !== undefined && n <= 0n) errs.push(invalidShown(`${path}.${f}`, shown(n), 'must be greater than zero'));
  }
  if (leaseDuration !== undefined && renewDeadline !== undefined && leaseDuration <= renewDeadline) {
    // kube reports renewDeadline's value under leaseDuration.
    errs.push(
      invalidShown(`${path}.leaseDuration`, shown(renewDeadline), 'LeaseDuration must be greater than RenewDeadline'),
    );
  }
  if (leaseDuration !== undefined && leaseDuration > 0n && leaseDuration % NANOS_PER_SECOND !== 0n) {
    errs.push(invalidShown(`${path}.leaseDuration`, shown(leaseDuration), 'must be a whole number of seconds'));
  }
  if (
    renewDeadline !== undefined &&
    retryPeriod !== undefined &&
    renewDeadline > 0n &&
    retryPeriod > 0n &&
    Number(renewDeadline) <= JITTER_FACTOR * Number(retryPeriod)
  ) {
    errs.push(
      invalidShown(
        `${path}.renewDeadline`,
        shown(renewDeadline),
        'renewDeadline must be greater than retryPeriod*JitterFactor',
      ),
    );
  }
  if (cfg.resourceLock === '') {
    errs.push(fieldErrors.invalid(`${path}.resourceLock`, cfg.resourceLock, 'resourceLock is required'));
  } else if (REMOVED_LOCKS.includes(cfg.resourceLock)) {
    errs.push(
      fieldErrors.invalid(
        `${path}.resourceLock`,
        cfg.resourceLock,
        `${cfg.resourceLock} lock is removed, migrate to ${LEASES_RESOURCE_LOCK}`,
      ),
    );
  } else if (cfg.resourceLock !== LEASES_RESOURCE_LOCK) {
    errs.push(fieldErrors.notSupported(`${path}.resourceLock`, cfg.resourceLock, [LEASES_RESOURCE_LOCK]));
  }
  if (cfg.resourceNamespace === '') {
    errs.push(fieldErrors.invalid(`${path}.resourceNamespace`, cfg.resourceNamespace, 'resourceNamespace is required'));
  }
  if (cfg.resourceName === '') {
    errs.push(fieldErrors.invalid(`${path}.resourceName`, cfg.resourceName, 'resourceName is required'));
  }
  return errs;
}

/**
 * The timings of a valid configuration.
 * @throws LeaderElectionConfigError listing every problem (as `<path>: <message>`).
 */
export function leaderElectionTimings(
  cfg: LeaderElectionConfiguration,
  path = 'leaderElection',
): LeaderElectionTimings {
  const errs = validateLeaderElectionConfiguration({ ...cfg, leaderElect: true }, path);
  if (errs.length > 0) throw new LeaderElectionConfigError(errs.map(formatFieldError));
  const ms = (s: string) => Number((parseGoDurationNanos(s) as bigint) / NANOS_PER_MS);
  return {
    leaseDurationMs: ms(cfg.leaseDuration),
    renewDeadlineMs: ms(cfg.renewDeadline),
    retryPeriodMs: ms(cfg.retryPeriod),
  };
}

const STRING_FIELDS = [
  'leaseDuration',
  'renewDeadline',
  'retryPeriod',
  'resourceLock',
  'resourceName',
  'resourceNamespace',
];

/**
 * Reads a `leaderElection` section decoded from YAML or JSON: unknown fields and wrong types are
 * errors, absent fields take `defaults`, then the result is validated. All problems come back
 * together, each with its field path.
 */
export function parseLeaderElectionConfiguration(
  raw: unknown,
  defaults: LeaderElectionConfiguration,
  path = 'leaderElection',
): { readonly config?: LeaderElectionConfiguration; readonly errors: readonly FieldError[] } {
  if (raw === undefined || raw === null) {
    const errors = validateLeaderElectionConfiguration(defaults, path);
    return errors.length > 0 ? { errors } : { config: defaults, errors };
  }
  if (typeof raw !== 'object' || Array.isArray(raw)) {
    return { errors: [fieldErrors.typeInvalid(path, raw, 'must be an object')] };
  }
  const errs: FieldError[] = [];
  const out: Record<string, unknown> = { ...defaults };
  for (const [k, v] of Object.entries(raw)) {
    if (k === 'leaderElect') {
      if (typeof v === 'boolean') out[k] = v;
      else errs.push(fieldErrors.typeInvalid(`${path}.${k}`, v, 'must be a boolean'));
    } else if (STRING_FIELDS.includes(k)) {
      if (typeof v === 'string') out[k] = v;
      else errs.push(fieldErrors.typeInvalid(`${path}.${k}`, v, 'must be a string'));
    } else {
      errs.push({ type: 'FieldValueNotFound', field: `${path}.${k}`, message: 'unknown field' });
    }
  }
  const config = out as unknown as LeaderElectionConfiguration;
  errs.push(...validateLeaderElectionConfiguration(config, path));
  return errs.length > 0 ? { errors: errs } : { config, errors: errs };
}

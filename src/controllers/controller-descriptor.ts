import type { ApiDomain } from '../apis/api-domain.js';
import type { ApiClient } from '../client/api/api-client.js';
import type { SharedInformers } from '../client/informer/informer.js';
import type { Clock } from '../util/clock.js';
import { parseGoDurationNanos } from '../util/go-duration.js';
import type { Logger } from '../util/logger.js';

/**
 * What one controller is given to run, in orch-apiserver (in process) or in
 * orch-controller-manager (over HTTPS): the same controller code runs in both.
 */
export interface ControllerContext {
  /**
   * The API as this controller: its own service account
   * (`system:serviceaccount:<system ns>:<serviceAccount>`) when `UseServiceAccountCredentials`
   * is on (always in process), else the controller manager's identity. Writes are recorded under
   * the controller's field manager.
   */
  readonly client: ApiClient;
  /** The shared informers (started by the runner; wait for `synced()` of those you use). */
  readonly informers: SharedInformers;
  /**
   * This controller's member of the controller manager's configuration, defaults applied
   * (e.g. `{ ConcurrentDeploymentSyncs: 5 }` for `DeploymentController`); `{}` when it has none.
   */
  readonly config: Readonly<Record<string, unknown>>;
  /** `Generic.MinResyncPeriod` in ms: resync every period (random between it and twice it). */
  readonly minResyncPeriodMs: number;
  readonly domain: ApiDomain;
  readonly clock: Clock;
  readonly logger: Logger;
  /** The controller stops (its `run` resolves) when this aborts. */
  readonly signal: AbortSignal;
}

/**
 * A controller as the controller manager knows it: the name `--controllers` and `Controllers`
 * use (kube's names: `deployment`, `replicaset`, `serviceaccount-token`, ...), whether `*`
 * enables it, the service account it acts as, and the configuration member it reads.
 */
export interface ControllerDescriptor {
  /** kube-controller-manager v1.32's canonical controller name (`deployment-controller`, ...). */
  readonly name: string;
  /** Other names `--controllers` accepts for it (kube's older short names: `deployment`, ...). */
  readonly aliases?: readonly string[];
  /** Service account and field manager (`deployment-controller`), as kube's default roles name it. */
  readonly serviceAccount: string;
  /**
   * Runs with the controller manager's own credentials even with `UseServiceAccountCredentials`
   * (kube's service account token controller: it creates the tokens the others would use).
   */
  readonly managerCredentials?: boolean;
  /** Part of `*` (kube: false for `bootstrap-signer` and `token-cleaner`). */
  readonly enabledByDefault: boolean;
  /** Member of OrchControllerManagerConfiguration it reads (`DeploymentController`); none: `{}`. */
  readonly configMember?: string;
  /** Runs until `ctx.signal` aborts; throws only on a failure that stops the controller. */
  run(ctx: ControllerContext): Promise<void>;
}

/** A number member of a controller's configuration, or `fallback` (kube's default) when unset. */
export function configNumber(config: Readonly<Record<string, unknown>>, member: string, fallback: number): number {
  const v = config[member];
  return typeof v === 'number' && Number.isFinite(v) ? v : fallback;
}

/** A string member of a controller's configuration; `''` when unset. */
export function configString(config: Readonly<Record<string, unknown>>, member: string): string {
  const v = config[member];
  return typeof v === 'string' ? v : '';
}

/**
 * A Duration member (`meta/v1.Duration`, a Go duration string such as `"5m0s"`) in ms, or
 * `fallbackMs` when unset or unreadable (configuration files are validated before this).
 */
export function configDurationMs(
  config: Readonly<Record<string, unknown>>,
  member: string,
  fallbackMs: number,
): number {
  const v = config[member];
  if (typeof v !== 'string') return fallbackMs;
  const nanos = parseGoDurationNanos(v);
  return typeof nanos === 'bigint' ? Number(nanos / 1_000_000n) : fallbackMs;
}

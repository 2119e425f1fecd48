import { parseGoDurationNanos } from '../../util/go-duration.js';
import type {
  CloudControllerManagerConfiguration,
  Duration,
  GenericControllerManagerConfiguration,
  OrchControllerManagerConfiguration,
} from './types.js';

/**
 * The configuration's members by name (`DeploymentController` → `{ ConcurrentDeploymentSyncs: 5 }`),
 * what a controller descriptor's `configMember` selects for its `ctx.config`.
 */
export function configMembersOf(
  config: OrchControllerManagerConfiguration | CloudControllerManagerConfiguration,
): Readonly<Record<string, Readonly<Record<string, unknown>>>> {
  const out: Record<string, Readonly<Record<string, unknown>>> = {};
  for (const [k, v] of Object.entries(config)) {
    if (v !== null && typeof v === 'object' && !Array.isArray(v)) out[k] = v as Record<string, unknown>;
  }
  return out;
}

/** A validated Duration member in milliseconds (fractions of a millisecond dropped). */
export function durationMs(d: Duration): number {
  const nanos = parseGoDurationNanos(d);
  return typeof nanos === 'bigint' ? Number(nanos / 1_000_000n) : 0;
}

/** The run loop's timings from `Generic`: reflector resync base and the pause between controller starts. */
export function genericTimings(g: GenericControllerManagerConfiguration): {
  readonly minResyncPeriodMs: number;
  readonly controllerStartIntervalMs: number;
} {
  return {
    minResyncPeriodMs: durationMs(g.MinResyncPeriod),
    controllerStartIntervalMs: durationMs(g.ControllerStartInterval),
  };
}

import { setTimeout as sleep } from 'node:timers/promises';
import { type Logger, silentLogger } from '../util/logger.js';
import { CompactedError } from './errors.js';
import type { Store } from './store.js';

/** kube-apiserver's default `--etcd-compaction-interval`. */
export const DEFAULT_COMPACTION_INTERVAL_MS = 5 * 60 * 1000;

/** Waits between compaction ticks; injected so tests can drive the ticks. */
export interface CompactorClock {
  /** Resolves after `ms`; rejects (or resolves) early when `signal` aborts. */
  sleep(ms: number, signal: AbortSignal): Promise<void>;
}

export const timerClock: CompactorClock = {
  sleep: (ms, signal) => sleep(ms, undefined, { signal }),
};

export interface CompactorOptions {
  readonly store: Pick<Store, 'currentRevision' | 'compact'>;
  /** Time between ticks (default {@link DEFAULT_COMPACTION_INTERVAL_MS}); must be positive. */
  readonly intervalMs?: number;
  readonly clock?: CompactorClock;
  readonly logger?: Logger;
  /** Stops the compactor (after the running compaction, if any, finishes or aborts). */
  readonly signal: AbortSignal;
}

export interface Compactor {
  /** Settles once the compactor has stopped; never rejects. */
  readonly stopped: Promise<void>;
}

/**
 * Periodic compaction, as kube-apiserver runs it: every interval, compact to the revision
 * observed on the previous tick, then remember the current one. History is therefore kept for
 * at least one interval (a watch or a paginated list less than one interval old can always
 * resume), and an idle store is compacted at most once per revision.
 *
 * Failures are logged and retried on the next tick with the same target. A CompactedError means
 * someone (another API server sharing the backend) compacted at or past the target already,
 * which is fine. Backend-independent: it only uses `currentRevision` and `compact`.
 */
export function startCompactor(options: CompactorOptions): Compactor {
  const intervalMs = options.intervalMs ?? DEFAULT_COMPACTION_INTERVAL_MS;
  if (!(intervalMs > 0)) throw new RangeError(`compaction interval must be positive, got ${intervalMs}`);
  const clock = options.clock ?? timerClock;
  const logger = options.logger ?? silentLogger;
  const { store, signal } = options;

  async function run(): Promise<void> {
    /** The revision seen on the previous tick: the target of the next compaction. */
    let observed = 0n;
    let compacted = 0n;
    for (;;) {
      try {
        await clock.sleep(intervalMs, signal);
      } catch {
        // Aborted while waiting.
      }
      if (signal.aborted) return;
      let current: bigint;
      try {
        current = await store.currentRevision(signal);
      } catch (err) {
        if (signal.aborted) return;
        logger.warn('storage compaction: cannot read the current revision', { error: describe(err) });
        continue;
      }
      if (observed > compacted) {
        try {
          await store.compact(observed, signal);
          compacted = observed;
          logger.info('compacted storage', { revision: String(observed) });
        } catch (err) {
          if (signal.aborted) return;
          if (!(err instanceof CompactedError)) {
            // Keep the target: the next tick retries it.
            logger.warn('storage compaction failed; retrying on the next tick', {
              revision: String(observed),
              error: describe(err),
            });
            continue;
          }
          if (err.compactedRevision > compacted) compacted = err.compactedRevision;
          logger.info('storage already compacted', {
            revision: String(observed),
            compactedRevision: String(err.compactedRevision),
          });
        }
      }
      observed = current;
    }
  }

  return { stopped: run().catch((err: unknown) => logger.error('compactor stopped', { error: describe(err) })) };
}

function describe(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

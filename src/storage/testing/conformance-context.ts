import { setMaxListeners } from 'node:events';
import { it } from 'node:test';
import type { Store } from '../store.js';
import type { BackendHarness } from './backend-harness.js';
import { withTimeout } from './conformance-helpers.js';
import { StoreModel } from './store-model.js';
import { WatchReader } from './watch-reader.js';

/** Per-test handle: a freshly opened store and helpers bound to it. */
export interface ConformanceTest {
  readonly store: Store;
  readonly harness: BackendHarness;
  /** Aborted when the test ends (success or failure). */
  readonly signal: AbortSignal;
  /** A new reference model writing through {@link ConformanceTest.store}. */
  model(): StoreModel;
  /** Opens a watch that is aborted when the test ends. */
  watch(prefix: string, afterRevision: bigint, opts?: { progressIntervalMs?: number }): WatchReader;
  /** Closes the store now (the runner then skips its own close). */
  closeStore(): Promise<void>;
}

export interface ConformanceTestOptions {
  /** Whole-test deadline (default 30 s). */
  readonly timeoutMs?: number;
  /** Skip with this reason. */
  readonly skip?: string | false;
}

/** What each group of conformance tests registers against. */
export interface ConformanceSuite {
  readonly harness: BackendHarness;
  readonly slow: boolean;
  test(name: string, body: (t: ConformanceTest) => Promise<void>, opts?: ConformanceTestOptions): void;
}

const OPEN_TIMEOUT_MS = 30_000;
const CLOSE_TIMEOUT_MS = 10_000;

export function createSuite(harness: BackendHarness, slow: boolean): ConformanceSuite {
  return {
    harness,
    slow,
    test(name, body, opts = {}) {
      it(name, { timeout: opts.timeoutMs ?? 30_000, skip: opts.skip || false }, async () => {
        const store = await withTimeout(harness.open(), OPEN_TIMEOUT_MS, `${harness.name}: harness.open()`);
        const controller = new AbortController();
        // Every watch of the test listens to this signal.
        setMaxListeners(0, controller.signal);
        let closed = false;
        const t: ConformanceTest = {
          store,
          harness,
          signal: controller.signal,
          model: () => new StoreModel(store),
          watch: (prefix, afterRevision, o = {}) =>
            new WatchReader(store, prefix, {
              afterRevision,
              progressIntervalMs: o.progressIntervalMs,
              signal: controller.signal,
            }),
          closeStore: async () => {
            closed = true;
            await withTimeout(store.close(), CLOSE_TIMEOUT_MS, 'store.close()');
          },
        };
        let failed = true;
        try {
          await body(t);
          failed = false;
        } finally {
          controller.abort();
          if (!closed) {
            const closing = withTimeout(store.close(), CLOSE_TIMEOUT_MS, 'store.close()');
            // After a failure the test's own error matters more than a failing close.
            if (failed) await closing.catch(() => {});
            else await closing;
          }
        }
      });
    },
  };
}

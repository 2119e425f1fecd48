import { after, describe } from 'node:test';
import type { BackendHarness } from './backend-harness.js';
import { registerAvailabilityTests } from './conformance-availability.js';
import { registerConcurrencyTests } from './conformance-concurrency.js';
import { createSuite } from './conformance-context.js';
import { registerHistoryTests } from './conformance-history.js';
import { registerKeyValueTests } from './conformance-kv.js';
import { registerRandomTests } from './conformance-random.js';
import { registerWatchTests } from './conformance-watch.js';

/** Options for {@link runStoreConformance}. */
export interface StoreConformanceOptions {
  /** Also run the heavier variants (more watchers, a longer random workload). */
  readonly slow?: boolean;
}

/**
 * Registers the storage conformance suite with `node:test`: one
 * `describe(harness.name + ' store conformance')` whose tests each open a fresh store with
 * `harness.open()`, abort their watches and close it afterwards; `harness.dispose()` runs once
 * at the end. Outage tests run only when the harness has `stopBackend` and `startBackend`.
 *
 * Beyond the Store TSDoc, the suite expects:
 * - tests run one at a time against a store nobody else writes to, so revisions are compared
 *   exactly (`currentRevision()` equals the last write's revision, failed writes consume none,
 *   `RevisionTooNewError.currentRevision` is that revision); revisions need not be consecutive;
 * - `CompactedError.requestedRevision` is the revision a get/range asked for;
 * - update/delete of an absent key fail with NotFoundError even when a guard is given;
 * - `harness.corrupt()` either damages the record in place (no new revision) or writes damaged
 *   bytes through the backend (exactly one new revision, seen by watches as a `put` whose kv has
 *   `corrupt` set); an unconditional delete removes a corrupt key;
 * - aborting a watch's signal, or closing the store, ends the iteration without an error, also
 *   while a `next()` is pending; the suite calls `next()` right after `watch()`;
 * - with `progressIntervalMs`, an idle watch reports progress within seconds, never above
 *   `currentRevision()` nor at or above an undelivered change, and reaching writes made outside
 *   its prefix;
 * - a watch outlives a short backend restart (no error, no gap, no duplicate);
 * - reads at exactly the compacted revision fail (etcd itself still serves that revision);
 * - a 1.5 MiB value is accepted (etcd needs `--max-request-bytes` above its 1.5 MiB default).
 */
export function runStoreConformance(harness: BackendHarness, options: StoreConformanceOptions = {}): void {
  describe(`${harness.name} store conformance`, () => {
    const suite = createSuite(harness, options.slow ?? false);
    registerKeyValueTests(suite);
    registerConcurrencyTests(suite);
    registerRandomTests(suite);
    registerWatchTests(suite);
    registerHistoryTests(suite);
    registerAvailabilityTests(suite);
    after(() => harness.dispose());
  });
}

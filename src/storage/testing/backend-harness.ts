import type { Store } from '../store.js';

/**
 * What the storage conformance suite needs from a backend under test. Each `open()` returns a
 * fresh, empty store (a new data directory or a new key prefix), so tests never see each other.
 */
export interface BackendHarness {
  readonly name: string;
  open(): Promise<Store>;
  /** Damage the record stored for `key` so that reading it back fails for that key only. */
  corrupt(store: Store, key: string): Promise<void>;
  /** Make the backend unreachable (stop the server); only backends with a separate server. */
  stopBackend?(): Promise<void>;
  /** Bring a stopped backend back, with its data. */
  startBackend?(): Promise<void>;
  /** Stop everything the harness started (servers, temp directories). */
  dispose(): Promise<void>;
}

import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { Store } from '../storage/store.js';
import type { Logger } from '../util/logger.js';

export type StorageBackend = 'embedded' | 'etcd3';

export interface StoreOptions {
  readonly backend: StorageBackend;
  readonly dataDir: string;
  readonly etcdServers: readonly string[];
  readonly etcdPrefix: string;
  readonly logger: Logger;
}

/**
 * Opens the configured backend: LMDB under `<dataDir>/store`, or etcd. Backends are loaded on
 * demand, so the embedded store never loads the etcd client (and start-up stays fast).
 */
export async function openStore(o: StoreOptions): Promise<Store> {
  if (o.backend === 'etcd3') {
    if (o.etcdServers.length === 0) throw new Error('--etcd-servers must be set with --storage-backend=etcd3');
    const { openEtcdStore } = await import('../storage/etcd/etcd-store.js');
    // On an etcd cluster, a write forwarded to a leader that dies is answered only at its
    // deadline (2 s), and a call failing while the members elect a new leader (about one election
    // timeout, 1 s by default) is retried for about 3 s (backoff 0.1, 0.2, 0.4, 0.8, 1.6 s).
    const cluster = o.etcdServers.length > 1;
    const tuning = cluster ? { maxAttempts: 6, writeTimeoutMs: 2000 } : {};
    return openEtcdStore({ endpoints: [...o.etcdServers], prefix: o.etcdPrefix, logger: o.logger, ...tuning });
  }
  const path = join(o.dataDir, 'store');
  await mkdir(path, { recursive: true, mode: 0o700 });
  const { openLmdbStore } = await import('../storage/lmdb/lmdb-store.js');
  return openLmdbStore({ path, logger: o.logger });
}

import { randomBytes } from 'node:crypto';
import { Etcd3 } from 'etcd3';
import type { Logger } from '../../../util/logger.js';
import type { Store } from '../../store.js';
import type { BackendHarness } from '../../testing/backend-harness.js';
import { type EtcdServerHandle, type EtcdServerOptions, startEtcdServer } from '../../testing/etcd-server.js';
import { type EtcdStore, type EtcdStoreOptions, openEtcdStore } from '../etcd-store.js';

export interface EtcdHarnessOptions {
  /** Options for the etcd process the harness starts on first use. */
  readonly server?: EtcdServerOptions;
  /** Store options for every opened store (endpoints and keyNamespace are set by the harness). */
  readonly store?: Omit<EtcdStoreOptions, 'endpoints' | 'keyNamespace'>;
  readonly logger?: Logger;
}

/** The etcd {@link BackendHarness}, plus access to the server for fault tests. */
export interface EtcdHarness extends BackendHarness {
  /** The running server (started on demand). */
  server(): Promise<EtcdServerHandle>;
  /** The wire namespace of a store opened by this harness. */
  namespaceOf(store: Store): string;
}

/**
 * One etcd process shared by every store the harness opens; each store gets its own random key
 * namespace, so stores never see each other's keys. Revisions and compaction are shared, as
 * with any etcd used by several clients: a fresh store does not start at revision 0.
 */
export function createEtcdHarness(options: EtcdHarnessOptions = {}): EtcdHarness {
  let server: Promise<EtcdServerHandle> | undefined;
  let raw: Etcd3 | undefined;
  const stores = new Set<EtcdStore>();
  const namespaces = new WeakMap<Store, string>();
  const getServer = (): Promise<EtcdServerHandle> => {
    server ??= startEtcdServer(options.server);
    return server;
  };
  const namespaceOf = (store: Store): string => {
    const ns = namespaces.get(store);
    if (ns === undefined) throw new Error('store was not opened by this harness');
    return ns;
  };
  return {
    name: 'etcd',
    server: getServer,
    namespaceOf,
    async open() {
      const { endpoint } = await getServer();
      const keyNamespace = `/orch-test-${randomBytes(6).toString('hex')}`;
      const store = await openEtcdStore({
        callTimeoutMs: 3000,
        watchRetryBudgetMs: 4000,
        ...options.store,
        logger: options.logger ?? options.store?.logger,
        endpoints: [endpoint],
        keyNamespace,
      });
      namespaces.set(store, keyNamespace);
      stores.add(store);
      const close = store.close.bind(store);
      store.close = async () => {
        stores.delete(store);
        await close();
      };
      return store;
    },
    async corrupt(store, key) {
      const { endpoint } = await getServer();
      raw ??= new Etcd3({ hosts: endpoint });
      await raw.put(`${namespaceOf(store)}${key}`).value(Buffer.from('{"written":"by a foreign writer"}'));
    },
    async stopBackend() {
      await (await getServer()).stop();
    },
    async startBackend() {
      await (await getServer()).start();
    },
    async dispose() {
      for (const store of [...stores]) await store.close();
      raw?.close();
      raw = undefined;
      if (server) await (await server).dispose();
      server = undefined;
    },
  };
}

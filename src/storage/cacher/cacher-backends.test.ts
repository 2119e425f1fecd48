import { createEtcdHarness } from '../etcd/testing/etcd-harness.js';
import { createLmdbHarness } from '../lmdb/testing/lmdb-harness.js';
import { MemoryStore } from '../memory/memory-store.js';
import { etcdSkipReason } from '../testing/etcd-server.js';
import { runCacherConformance } from './testing/cacher-conformance.js';

runCacherConformance({
  name: 'memory',
  open: async () => new MemoryStore(),
  corrupt: async (store, key) => (store as MemoryStore).corruptRecord(key),
  dispose: async () => {},
});
runCacherConformance(createLmdbHarness());
if (etcdSkipReason() === false) runCacherConformance(createEtcdHarness());

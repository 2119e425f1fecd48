import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { encodeStored } from '../../src/registry/generic/stored-object.js';
import { keyScheme, objectKey } from '../../src/storage/keys.js';
import { openLmdbStore } from '../../src/storage/lmdb/lmdb-store.js';

/**
 * Writes a namespace and `count` ConfigMaps of about 1 KiB of JSON each straight into the
 * embedded store of `dataDir` (the server is not running). Returns the total JSON bytes.
 */
export async function seedConfigMaps(dataDir: string, namespace: string, count: number): Promise<number> {
  const store = await openLmdbStore({ path: join(dataDir, 'store') });
  const keys = keyScheme('/registry');
  const now = new Date().toISOString().slice(0, 19) + 'Z';
  try {
    await store.create(
      objectKey(keys, { group: '', resource: 'namespaces', name: namespace }),
      encodeStored({
        apiVersion: 'v1',
        kind: 'Namespace',
        metadata: {
          name: namespace,
          uid: randomUUID(),
          creationTimestamp: now,
          labels: { 'orch.io/metadata.name': namespace },
        },
        spec: { finalizers: ['orch'] },
        status: { phase: 'Active' },
      }),
    );
    let bytes = 0;
    let next = 0;
    const worker = async () => {
      while (next < count) {
        const i = next++;
        const name = `cm-${String(i).padStart(6, '0')}`;
        const value = encodeStored({
          apiVersion: 'v1',
          kind: 'ConfigMap',
          metadata: {
            name,
            namespace,
            uid: randomUUID(),
            creationTimestamp: now,
            labels: { app: 'bench', shard: String(i % 10) },
          },
          data: { payload: 'x'.repeat(760), index: String(i) },
        });
        bytes += value.length;
        await store.create(objectKey(keys, { group: '', resource: 'configmaps', namespace, name }), value);
      }
    };
    await Promise.all(Array.from({ length: 64 }, worker));
    return bytes;
  } finally {
    await store.close();
  }
}

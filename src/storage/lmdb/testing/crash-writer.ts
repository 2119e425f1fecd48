/**
 * Child process of the LMDB crash test (test/storage/lmdb-crash.test.ts): writes to the LMDB
 * store in `argv[2]` with 16 concurrent writers (creates, guarded updates and deletes over 120
 * keys, and a compaction every few hundred writes) until it is killed. After each acknowledged
 * write it prints one line:
 *
 *   put <revision> <key> <value>
 *   del <revision> <key>
 *
 * and `ready <revision>` once the store is open. The test runs it from its test bundle (or with
 * `node --import tsx`).
 */
import { ConflictError, KeyExistsError, NotFoundError } from '../../errors.js';
import { openLmdbStore } from '../lmdb-store.js';

const WRITERS = 16;
const KEYS = 120;

async function main(): Promise<void> {
  const [dir, seedArg] = process.argv.slice(2);
  if (!dir) throw new Error('usage: crash-writer <data dir> [seed]');
  let seed = Number(seedArg ?? 1) >>> 0 || 1;
  const random = () => {
    // xorshift32: reproducible per seed.
    seed ^= seed << 13;
    seed ^= seed >>> 17;
    seed ^= seed << 5;
    return (seed >>> 0) / 0x1_0000_0000;
  };
  const store = await openLmdbStore({ path: dir });
  const out = (line: string) => process.stdout.write(`${line}\n`);
  out(`ready ${await store.currentRevision()}`);
  let sequence = 0;
  let writes = 0;

  const writer = async (id: number): Promise<never> => {
    for (;;) {
      const key = `/crash/k${String(Math.floor(random() * KEYS)).padStart(3, '0')}`;
      const value = `${key}@${process.pid}.${id}.${sequence++}`;
      try {
        const current = await store.get(key);
        if (current === undefined) {
          const { revision } = await store.create(key, Buffer.from(value));
          out(`put ${revision} ${key} ${value}`);
        } else if (random() < 0.15) {
          const { revision } = await store.delete(key, current.modRevision);
          out(`del ${revision} ${key}`);
        } else {
          const { revision } = await store.update(key, Buffer.from(value), current.modRevision);
          out(`put ${revision} ${key} ${value}`);
        }
      } catch (err) {
        if (!(err instanceof ConflictError || err instanceof KeyExistsError || err instanceof NotFoundError)) throw err;
      }
      if (++writes % 300 === 0) {
        const revision = await store.currentRevision();
        if (revision > 100n) await store.compact(revision - 100n).catch(() => {});
      }
    }
  };
  await Promise.all(Array.from({ length: WRITERS }, (_, id) => writer(id)));
}

main().catch((err: unknown) => {
  process.stderr.write(`crash-writer failed: ${err instanceof Error ? err.stack : String(err)}\n`);
  process.exit(1);
});

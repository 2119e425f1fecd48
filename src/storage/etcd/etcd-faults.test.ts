import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, describe, it } from 'node:test';
import { UnavailableError } from '../errors.js';
import type { Store } from '../store.js';
import { etcdSkipReason } from '../testing/etcd-server.js';
import { openEtcdStore } from './etcd-store.js';
import { createEtcdHarness } from './testing/etcd-harness.js';

const enc = (s: string) => new TextEncoder().encode(s);

/** Resolves with how long `op` took to reject with UnavailableError. */
async function failsUnavailable(op: () => Promise<unknown>): Promise<number> {
  const started = Date.now();
  const err = await op().then(
    () => assert.fail('expected UnavailableError'),
    (e: unknown) => e,
  );
  assert.ok(err instanceof UnavailableError, `expected UnavailableError, got ${String(err)}`);
  return Date.now() - started;
}

/**
 * SIGSTOP takes effect asynchronously: a process running on another core may still answer a
 * request or two. Waits until the kernel reports the process stopped (state `T` in /proc).
 */
async function stoppedByKernel(pid: number): Promise<void> {
  for (let i = 0; i < 200; i++) {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The state follows the parenthesised command name.
    if (stat.slice(stat.lastIndexOf(')') + 2).startsWith('T')) return;
    await new Promise((r) => setTimeout(r, 5));
  }
  assert.fail(`process ${pid} did not stop`);
}

describe('etcd store fault handling', { skip: etcdSkipReason() }, () => {
  const harness = createEtcdHarness({ store: { callTimeoutMs: 500, watchRetryBudgetMs: 1500 } });
  after(() => harness.dispose());

  it('fails fast with UnavailableError while etcd is down and recovers with the same store', async () => {
    const store = await harness.open();
    const server = await harness.server();
    try {
      const { revision } = await store.create('/registry/g/r/a', enc('a1'));
      await server.stop();
      try {
        const timings = await Promise.all([
          failsUnavailable(() => store.get('/registry/g/r/a')),
          failsUnavailable(() => store.range('/registry/g/r/')),
          failsUnavailable(() => store.create('/registry/g/r/b', enc('b'))),
          failsUnavailable(() => store.update('/registry/g/r/a', enc('a2'), revision)),
          failsUnavailable(() => store.delete('/registry/g/r/a')),
          failsUnavailable(() => store.compactedRevision()),
        ]);
        for (const ms of timings) assert.ok(ms < 3000, `failed after ${ms} ms`);
        await assert.rejects(openEtcdStore({ endpoints: [server.endpoint], callTimeoutMs: 500 }), UnavailableError);
      } finally {
        await server.start();
      }
      const recovered = await eventually(() => store.update('/registry/g/r/a', enc('a2'), revision));
      assert.ok(recovered.revision > revision);
      assert.equal(new TextDecoder().decode((await store.get('/registry/g/r/a'))?.value), 'a2');
    } finally {
      await store.close();
    }
  });

  it('bounds calls to a hung etcd by the call deadline', async () => {
    const store = await harness.open();
    const server = await harness.server();
    const pid = server.pid!;
    try {
      const created = await store.create('/registry/g/r/h', enc('h'));
      const other = await store.create('/registry/g/r/j', enc('j'));
      process.kill(pid, 'SIGSTOP');
      await stoppedByKernel(pid);
      try {
        // Writes are not retried after a deadline (they may have been applied): one deadline.
        assert.ok((await failsUnavailable(() => store.create('/registry/g/r/i', enc('i')))) < 2000);
        // A guarded update or delete with an unknown outcome fails too, as in kube's etcd3 store
        // (no check can tell our applied write from another's).
        const current = created.revision;
        assert.ok((await failsUnavailable(() => store.update('/registry/g/r/h', enc('h2'), current))) < 2000);
        assert.ok((await failsUnavailable(() => store.delete('/registry/g/r/j', other.revision))) < 2000);
        // Reads retry, but the per-host circuit breaker cuts the retries short.
        assert.ok((await failsUnavailable(() => store.get('/registry/g/r/h'))) < 4000);
      } finally {
        process.kill(pid, 'SIGCONT');
      }
      const kv = await eventually(() => store.get('/registry/g/r/h'));
      assert.equal(kv?.key, '/registry/g/r/h');
    } finally {
      await store.close();
    }
  });

  it('ends a watch with UnavailableError when etcd stays down beyond the retry budget', async () => {
    const store = await harness.open();
    const server = await harness.server();
    const controller = new AbortController();
    try {
      const start = await store.currentRevision();
      const iterator = store
        .watch('/registry/g/', { afterRevision: start, signal: controller.signal })
        [Symbol.asyncIterator]();
      const first = iterator.next();
      await store.create('/registry/g/r/w', enc('w'));
      assert.equal((await first).value?.type, 'put');
      const pending = iterator.next();
      await server.stop();
      try {
        const started = Date.now();
        await assert.rejects(pending, UnavailableError);
        const elapsed = Date.now() - started;
        assert.ok(elapsed >= 1000 && elapsed < 5000, `watch failed after ${elapsed} ms`);
      } finally {
        await server.start();
      }
    } finally {
      controller.abort();
      await store.close();
    }
  });

  it('ends a watch cleanly when aborted during an outage', async () => {
    const store: Store = await harness.open();
    const server = await harness.server();
    const controller = new AbortController();
    try {
      const iterator = store
        .watch('/registry/g/', { afterRevision: await store.currentRevision(), signal: controller.signal })
        [Symbol.asyncIterator]();
      const pending = iterator.next();
      await server.stop();
      try {
        setTimeout(() => controller.abort(), 300);
        assert.deepEqual(await pending, { done: true, value: undefined });
      } finally {
        await server.start();
      }
    } finally {
      await store.close();
    }
  });
});

async function eventually<T>(op: () => Promise<T>, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      return await op();
    } catch (e) {
      if (!(e instanceof UnavailableError) || Date.now() > deadline) throw e;
      await new Promise((r) => setTimeout(r, 100));
    }
  }
}

import assert from 'node:assert/strict';
import { UnavailableError } from '../errors.js';
import type { ConformanceSuite } from './conformance-context.js';
import { bytes, eventually, expectError, sleep } from './conformance-helpers.js';
import { summarizeEvent, summarizeKv } from './store-model.js';

/** How fast operations must fail once the backend is gone. */
const FAIL_WITHIN_MS = 10_000;
/** How long a restarted backend may take to serve the same store again. */
const RECOVER_WITHIN_MS = 20_000;

/** Backend outages; registered only when the harness can stop and start its backend. */
export function registerAvailabilityTests(suite: ConformanceSuite): void {
  const { harness } = suite;
  const skip =
    harness.stopBackend === undefined || harness.startBackend === undefined
      ? `${harness.name} harness cannot stop its backend`
      : false;
  const stop = () => harness.stopBackend!();
  const start = () => harness.startBackend!();

  suite.test(
    'with the backend stopped, operations fail with UnavailableError; after restart the same store works with its data',
    async (t) => {
      const { store } = t;
      const m = t.model();
      const a1 = await m.create('/av/a', 'a1');
      await m.create('/av/b', 'b1');
      await m.update('/av/a', 'a2');
      const revision = m.lastRevision;
      await stop();
      try {
        const started = Date.now();
        const operations: [string, () => Promise<unknown>][] = [
          ['currentRevision', () => store.currentRevision()],
          ['get', () => store.get('/av/a')],
          ['get at a revision', () => store.get('/av/a', { revision: a1 })],
          ['range', () => store.range('/av/')],
          ['count', () => store.count('/av/')],
          ['create', () => store.create('/av/c', bytes('c1'))],
          ['update', () => store.update('/av/a', bytes('lost'), revision)],
          ['delete', () => store.delete('/av/b')],
        ];
        await Promise.all(
          operations.map(async ([what, op]) => {
            await expectError(op(), UnavailableError, `${what} while stopped`, FAIL_WITHIN_MS + 2_000);
            const elapsed = Date.now() - started;
            assert.ok(elapsed <= FAIL_WITHIN_MS + 500, `${what} took ${elapsed} ms to fail`);
          }),
        );
      } finally {
        await start();
      }
      await eventually(() => store.currentRevision(), {
        timeoutMs: RECOVER_WITHIN_MS,
        what: 'store after restart',
      });
      assert.equal(await store.currentRevision(), revision, 'no write applied during the outage');
      assert.deepEqual((await store.range('/av/')).kvs.map(summarizeKv), m.snapshot('/av/'));
      await m.create('/av/c', 'c1');
      await m.update('/av/a', 'a3');
      assert.deepEqual((await store.range('/av/')).kvs.map(summarizeKv), m.snapshot('/av/'));
    },
    { skip, timeoutMs: 60_000 },
  );

  suite.test(
    'a watch open across a backend restart continues without gaps or duplicates',
    async (t) => {
      const { store } = t;
      const m = t.model();
      const r0 = await store.currentRevision();
      const w = t.watch('/aw/', r0);
      await m.create('/aw/a', 'a1');
      assert.deepEqual(summarizeEvent(await w.next()), m.log[0]);
      await stop();
      try {
        await sleep(200);
      } finally {
        await start();
      }
      await eventually(() => store.currentRevision(), { timeoutMs: RECOVER_WITHIN_MS, what: 'store after restart' });
      await m.create('/aw/b', 'b1');
      await m.update('/aw/a', 'a2');
      const expected = m.eventsAfter('/aw/', m.log[0].revision);
      assert.deepEqual((await w.take(2, RECOVER_WITHIN_MS)).map(summarizeEvent), expected);
      await w.expectQuiet(200);
    },
    { skip, timeoutMs: 60_000 },
  );
}

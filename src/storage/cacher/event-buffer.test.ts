import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { EventBuffer } from './event-buffer.js';
import { RevisionWaiter } from './revision-waiter.js';
import type { BufferedEvent } from './types.js';

const event = (revision: bigint, receivedAt: number): BufferedEvent<object> => ({
  revision,
  key: `/k/${revision}`,
  receivedAt,
  item: undefined,
  prev: undefined,
  plain: undefined,
});

describe('EventBuffer', () => {
  it('keeps the window, at least minEvents, at most maxEvents', () => {
    const buffer = new EventBuffer<object>({ historyWindowMs: 100, minEvents: 2, maxEvents: 5 }, 10n);
    for (let r = 11n; r <= 14n; r++) buffer.append(event(r, 0), 0);
    assert.equal(buffer.size, 4);
    assert.equal(buffer.oldestRevision, 10n);
    // 150 ms later: everything older than 100 ms goes, down to the minimum of 2.
    buffer.append(event(15n, 150), 150);
    assert.equal(buffer.size, 2);
    assert.equal(buffer.oldestRevision, 13n);
    for (let r = 16n; r <= 22n; r++) buffer.append(event(r, 160), 160);
    assert.equal(buffer.size, 5);
    assert.equal(buffer.oldestRevision, 17n);
    assert.equal(buffer.newestRevision, 22n);
  });

  it('finds the first event after a revision, also across gaps', () => {
    const buffer = new EventBuffer<object>({ historyWindowMs: 1000, minEvents: 0, maxEvents: 100 }, 0n);
    for (const r of [2n, 5n, 9n]) buffer.append(event(r, 0), 0);
    const table: [bigint, bigint | undefined][] = [
      [0n, 2n],
      [2n, 5n],
      [3n, 5n],
      [8n, 9n],
      [9n, undefined],
    ];
    for (const [after, want] of table) {
      const i = buffer.firstAfter(after);
      assert.equal(i < buffer.size ? buffer.at(i).revision : undefined, want, `after ${after}`);
    }
    assert.throws(() => buffer.append(event(9n, 0), 0), /out of order/);
    buffer.reset(20n);
    assert.equal(buffer.size, 0);
    assert.equal(buffer.oldestRevision, 20n);
  });
});

describe('RevisionWaiter', () => {
  it('releases waiters when the revision is reached, times out, and honours abort', async () => {
    const waiter = new RevisionWaiter(5n);
    assert.equal(await waiter.wait(5n, 10), true);
    const reached = waiter.wait(7n, 1000);
    const timedOut = waiter.wait(100n, 20);
    const controller = new AbortController();
    const aborted = waiter.wait(50n, 1000, controller.signal);
    waiter.advance(6n);
    waiter.advance(7n);
    assert.equal(await reached, true);
    assert.equal(await timedOut, false);
    controller.abort(new Error('gone'));
    await assert.rejects(aborted, /gone/);
    assert.equal(waiter.pending, 0);
    waiter.set(3n);
    assert.equal(waiter.revision, 3n);
  });
});

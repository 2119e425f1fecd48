import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { type LimiterTime, rateLimiterFor, TokenBucket, unlimited } from './rate-limiter.js';

/** Time that moves only when a waiter sleeps: each sleep advances it by the requested delay. */
function fakeTime(): LimiterTime & { at: number; sleeps: number[] } {
  const t = {
    at: 0,
    sleeps: [] as number[],
    now: () => t.at,
    async sleep(ms: number, signal: AbortSignal) {
      if (signal.aborted) throw new Error('aborted');
      t.sleeps.push(Math.round(ms));
      t.at += ms;
    },
  };
  return t;
}

describe('TokenBucket', () => {
  it('lets a burst through at once, then one request per 1/qps seconds', async () => {
    const time = fakeTime();
    const bucket = new TokenBucket(10, 3, time);
    const signal = new AbortController().signal;
    for (let i = 0; i < 3; i++) await bucket.wait(signal);
    assert.deepEqual(time.sleeps, []);
    await bucket.wait(signal);
    await bucket.wait(signal);
    assert.deepEqual(time.sleeps, [100, 100]);
  });

  it('refills while idle, up to the burst', async () => {
    const time = fakeTime();
    const bucket = new TokenBucket(2, 2, time);
    const signal = new AbortController().signal;
    await bucket.wait(signal);
    await bucket.wait(signal);
    time.at += 10_000; // far longer than needed to refill: still only 2 tokens
    await bucket.wait(signal);
    await bucket.wait(signal);
    assert.deepEqual(time.sleeps, []);
    await bucket.wait(signal);
    assert.deepEqual(time.sleeps, [500]);
  });

  it('gives the token back when a wait is aborted', async () => {
    const time = fakeTime();
    const bucket = new TokenBucket(1, 1, time);
    const ac = new AbortController();
    await bucket.wait(ac.signal);
    ac.abort();
    await assert.rejects(bucket.wait(ac.signal));
    await bucket.wait(new AbortController().signal);
    assert.deepEqual(time.sleeps, [1000]);
  });

  it('rejects settings that are no rate', () => {
    assert.throws(() => new TokenBucket(0, 1), RangeError);
    assert.throws(() => new TokenBucket(1, 0), RangeError);
  });
});

describe('rateLimiterFor (client-go semantics)', () => {
  const cases: [string, number | undefined, number | undefined, string][] = [
    ['qps < 0 is no limit', -1, 0, 'unlimited'],
    ['unset: 5 qps, burst 10', undefined, undefined, 'bucket 10'],
    ['qps 0 is the default 5', 0, 4, 'bucket 4'],
    ['burst 0 is the default 10', 20, 0, 'bucket 10'],
    ['as given', 20, 30, 'bucket 30'],
  ];
  for (const [what, qps, burst, want] of cases) {
    it(what, async () => {
      const time = fakeTime();
      const l = rateLimiterFor(qps, burst, time);
      if (want === 'unlimited') return assert.equal(l, unlimited);
      const signal = new AbortController().signal;
      const n = Number(want.split(' ')[1]);
      for (let i = 0; i < n; i++) await l.wait(signal);
      assert.deepEqual(time.sleeps, [], 'the burst passes at once');
      await l.wait(signal);
      assert.equal(time.sleeps.length, 1, 'the next request waits');
    });
  }
});

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { collectWhenIdle, exposedGc, processCpuMs } from './idle-collection.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A CPU clock that advances by the given amounts, one per sample (the last repeats). */
function cpuClock(steps: number[]) {
  let total = 0;
  let i = 0;
  return () => {
    total += steps[Math.min(i++, steps.length - 1)];
    return total;
  };
}

describe('collection when the process goes quiet after a burst', () => {
  it('collects once after start-up, at the first quiet interval, and not again while quiet', async () => {
    let collected = 0;
    // The first sample is start-up's CPU so far; then two busy intervals, then quiet ones.
    const stop = collectWhenIdle({ cpuMs: cpuClock([800, 200, 150, 5]), collect: () => collected++, intervalMs: 5 });
    await sleep(8);
    assert.equal(collected, 0);
    await sleep(60);
    assert.equal(collected, 1);
    await sleep(40);
    assert.equal(collected, 1, 'nothing to collect after while the process stays quiet');
    stop();
  });

  it('collects again after a later burst, once the least gap has passed', async () => {
    let collected = 0;
    let clock = 0;
    // Quiet start (little work), then a burst of 400 ms, then quiet.
    const stop = collectWhenIdle({
      cpuMs: cpuClock([10, 1, 1, 400, 1, 1, 1, 1, 200, 200, 1, 1]),
      collect: () => collected++,
      intervalMs: 5,
      burstCpuMs: 300,
      minGapMs: 1000,
      now: () => clock,
    });
    await sleep(15);
    assert.equal(collected, 0, 'start-up too small to be worth a collection');
    await sleep(30);
    assert.equal(collected, 1, 'after the burst');
    clock += 10;
    await sleep(40);
    assert.equal(collected, 1, 'within the least gap');
    stop();
  });

  it('stops when asked, and gives the process a collector and its CPU time', async () => {
    let collected = 0;
    const stop = collectWhenIdle({ cpuMs: cpuClock([800, 1]), collect: () => collected++, intervalMs: 20 });
    stop();
    await sleep(60);
    assert.equal(collected, 0);
    const gc = exposedGc();
    assert.equal(typeof gc, 'function');
    gc?.();
    const a = processCpuMs();
    let x = 0;
    for (let i = 0; i < 1e6; i++) x += i;
    assert.ok(x > 0 && processCpuMs() >= a);
  });
});

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { collectWhenSettled, exposedGc, processCpuMs } from './startup-garbage.js';

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

describe('collection once start-up settles', () => {
  it('collects once, at the first quiet interval', async () => {
    let collected = 0;
    // First sample is the baseline; then three busy intervals, then quiet ones.
    collectWhenSettled({ cpuMs: cpuClock([0, 200, 150, 90, 5]), collect: () => collected++, intervalMs: 5 });
    await sleep(20);
    assert.equal(collected, 0);
    await sleep(60);
    assert.equal(collected, 1);
    await sleep(30);
    assert.equal(collected, 1, 'only once');
  });

  it('gives up when the process never settles, and stops when cancelled', async () => {
    let collected = 0;
    collectWhenSettled({
      cpuMs: cpuClock([0, 100]),
      collect: () => collected++,
      intervalMs: 5,
      giveUpMs: 30,
    });
    const cancel = collectWhenSettled({
      cpuMs: cpuClock([0, 100, 100, 0]),
      collect: () => collected++,
      intervalMs: 20,
    });
    cancel();
    await sleep(120);
    assert.equal(collected, 0);
  });

  it('reaches V8’s collector at run time and reads the process CPU time', () => {
    const gc = exposedGc();
    assert.equal(typeof gc, 'function');
    gc?.();
    const a = processCpuMs();
    let x = 0;
    for (let i = 0; i < 1e6; i++) x += i;
    assert.ok(x > 0 && processCpuMs() >= a);
  });
});

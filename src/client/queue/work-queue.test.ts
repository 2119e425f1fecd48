import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { WorkQueue } from './work-queue.js';

describe('WorkQueue', () => {
  it('de-duplicates, never runs a key twice at once, re-runs a key added while it ran, retries failures', async () => {
    const ac = new AbortController();
    const q = new WorkQueue<string>({ signal: ac.signal, baseRetryDelayMs: 5 });
    const runs: string[] = [];
    let active = 0;
    let maxActiveForA = 0;
    let failuresLeft = 2;
    const errors: string[] = [];
    let release!: () => void;
    const firstA = new Promise<void>((r) => {
      release = r;
    });
    let aRuns = 0;
    q.add('a');
    q.add('a');
    q.add('b');
    const running = q.run(
      async (key) => {
        runs.push(key);
        if (key === 'a') {
          active++;
          maxActiveForA = Math.max(maxActiveForA, active);
          aRuns++;
          if (aRuns === 1) await firstA;
          active--;
        }
        if (key === 'b' && failuresLeft-- > 0) throw new Error('flaky');
        if (key === 'b' && failuresLeft < 0) {
          // Added while `a` was running: `a` must run once more afterwards.
          q.add('a');
          release();
        }
      },
      { workers: 3, onError: (key, e) => errors.push(`${key}: ${(e as Error).message}`) },
    );
    const deadline = Date.now() + 5000;
    while (aRuns < 2 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 5));
    ac.abort();
    await running;
    assert.deepEqual(errors, ['b: flaky', 'b: flaky']);
    assert.equal(runs.filter((k) => k === 'b').length, 3);
    assert.equal(aRuns, 2);
    assert.equal(maxActiveForA, 1);
  });

  it('stops handing out keys once the signal aborts', async () => {
    const ac = new AbortController();
    const q = new WorkQueue<number>({ signal: ac.signal });
    ac.abort();
    q.add(1);
    let ran = false;
    await q.run(async () => {
      ran = true;
    });
    assert.equal(ran, false);
  });
});

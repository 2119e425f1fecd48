import assert from 'node:assert/strict';
import { getMaxListeners, setMaxListeners } from 'node:events';
import { describe, it } from 'node:test';
import { expectListeners } from './listener-limit.js';

describe('expectListeners', () => {
  it('raises a lower limit and keeps a higher one', () => {
    const signal = new AbortController().signal;
    expectListeners(signal, 40);
    assert.equal(getMaxListeners(signal), 40);
    expectListeners(signal, 12);
    assert.equal(getMaxListeners(signal), 40);
  });

  it('leaves an unlimited signal unlimited: many listeners, no leak warning', async () => {
    const signal = new AbortController().signal;
    setMaxListeners(0, signal);
    expectListeners(signal, 12);
    const warnings: Error[] = [];
    const onWarning = (w: Error) => warnings.push(w);
    process.on('warning', onWarning);
    try {
      for (let i = 0; i < 30; i++) signal.addEventListener('abort', () => {});
      await new Promise((resolve) => setImmediate(resolve));
    } finally {
      process.off('warning', onWarning);
    }
    assert.deepEqual(
      warnings.filter((w) => w.name === 'MaxListenersExceededWarning'),
      [],
    );
  });
});

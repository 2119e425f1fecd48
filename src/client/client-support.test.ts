import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { StatusError } from '../apis/meta/status.js';
import { delay, errorText, isStatus, sleep } from './client-support.js';

describe('client support', () => {
  it('isStatus matches a StatusError by code only', () => {
    const cases: [unknown, number, boolean][] = [
      [new StatusError(404, 'NotFound', 'gone'), 404, true],
      [new StatusError(409, 'Conflict', 'stale'), 404, false],
      [Object.assign(new Error('not found'), { code: 404 }), 404, false],
      [undefined, 404, false],
    ];
    for (const [e, code, want] of cases) assert.equal(isStatus(e, code), want, `${String(e)} ${code}`);
  });

  it('errorText is the message of an Error, else the value as text', () => {
    const cases: [unknown, string][] = [
      [new StatusError(403, 'Forbidden', 'pods is forbidden'), 'pods is forbidden'],
      [new TypeError('bad'), 'bad'],
      ['plain', 'plain'],
      [42, '42'],
      [undefined, 'undefined'],
    ];
    for (const [e, want] of cases) assert.equal(errorText(e), want);
  });

  it('sleep waits, ends early on abort and at once for ms ≤ 0', async () => {
    const signal = new AbortController().signal;
    let t = performance.now();
    await sleep(30, signal);
    assert.ok(performance.now() - t >= 29);

    const stop = new AbortController();
    t = performance.now();
    const s = sleep(10_000, stop.signal);
    setTimeout(() => stop.abort(), 10);
    await s;
    assert.ok(performance.now() - t < 1000, 'aborted early');

    let done = false;
    void sleep(0, signal).then(() => {
      done = true;
    });
    await Promise.resolve();
    assert.equal(done, true, 'ms 0 resolves without a timer');
    await sleep(10, stop.signal);
  });

  it('delay resolves after ms, rejects with the abort reason when aborted', async () => {
    const t = performance.now();
    await delay(20, new AbortController().signal);
    assert.ok(performance.now() - t >= 19);

    const stop = new AbortController();
    const pending = delay(10_000, stop.signal);
    stop.abort(new Error('stopped'));
    await assert.rejects(pending, /stopped/);
    await assert.rejects(delay(5, stop.signal), /stopped/, 'already aborted');
  });
});

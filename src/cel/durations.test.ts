import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseDuration } from './durations.js';

describe('parseDuration (format: duration)', () => {
  const cases: [text: string, want: [seconds: bigint, nanos: number] | undefined][] = [
    // Go's time.ParseDuration
    ['0', [0n, 0]],
    ['1h30m', [5400n, 0]],
    ['-1.5s', [-1n, -500_000_000]],
    ['+300ms', [0n, 300_000_000]],
    ['1.000000001s', [1n, 1]],
    ['2h45m10.5s', [9910n, 500_000_000]],
    ['10us', [0n, 10_000]],
    ['10µs', [0n, 10_000]],
    ['.5h', [1800n, 0]],
    ['9223372036854775807ns', [9223372036n, 854_775_807]],
    // strfmt's words
    ['2 days', [172_800n, 0]],
    ['1 week 2d', [777_600n, 0]],
    ['3 minutes', [180n, 0]],
    ['5 hours', [18_000n, 0]],
    // not durations
    ['', undefined],
    ['1', undefined],
    ['1x', undefined],
    ['.s', undefined],
    ['9223372036854775808ns', undefined],
    ['forever', undefined],
  ];
  for (const [text, want] of cases) {
    it(JSON.stringify(text), () => {
      const got = parseDuration(text);
      assert.deepEqual(got === undefined ? undefined : [got.seconds, got.nanos], want);
    });
  }
});

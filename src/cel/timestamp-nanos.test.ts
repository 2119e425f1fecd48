import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { CelEnvironmentSet } from './environment-set.js';
import { CelEvaluationError } from './errors.js';
import { compile, evaluate } from './program.js';
import { durationFromNanos, subMillisecondNanos, timestampFromNanos, timestampNanos } from './timestamp-nanos.js';

describe('timestamps with nanoseconds (cel-go v0.22)', () => {
  const env = new CelEnvironmentSet().extend({ name: 'time', variables: [] }).newExpressions;
  const run = (expression: string) => evaluate(compile(expression, env), {});

  const cases: [expression: string, want: unknown][] = [
    ["string(timestamp('9999-12-31T23:59:59.999999999Z'))", '9999-12-31T23:59:59.999999999Z'],
    ["string(timestamp('2009-02-13T23:31:30.123456Z'))", '2009-02-13T23:31:30.123456Z'],
    ["string(timestamp('2009-02-13T23:31:30.120Z'))", '2009-02-13T23:31:30.12Z'],
    ["string(timestamp('2009-02-13T23:31:30Z'))", '2009-02-13T23:31:30Z'],
    [
      "timestamp('0001-01-01T00:00:01.999999999Z') + duration('999999999ns') == timestamp('0001-01-01T00:00:02.999999998Z')",
      true,
    ],
    ["duration('120s') + timestamp('2009-02-13T23:01:00Z') == timestamp('2009-02-13T23:03:00Z')", true],
    ["string(duration('1ns') + timestamp('2009-02-13T23:01:00Z'))", '2009-02-13T23:01:00.000000001Z'],
    ["string(timestamp('2009-02-13T23:01:00Z') - duration('1ns'))", '2009-02-13T23:00:59.999999999Z'],
    [
      "timestamp('2009-02-13T23:01:00.000000002Z') - timestamp('2009-02-13T23:01:00.000000001Z') == duration('1ns')",
      true,
    ],
    [
      "timestamp('2009-02-13T23:01:00.000000001Z') - timestamp('2009-02-13T23:01:00.000000002Z') == duration('-1ns')",
      true,
    ],
    ["timestamp('2009-02-13T23:01:00.000000001Z') > timestamp('2009-02-13T23:01:00Z')", true],
    ["timestamp('2009-02-13T23:01:00.000000001Z') != timestamp('2009-02-13T23:01:00Z')", true],
    ["timestamp('2009-02-13T23:01:00.000000001Z') <= timestamp('2009-02-13T23:01:00Z')", false],
    ["timestamp('2009-02-13T23:01:00.000000001Z') >= timestamp('2009-02-13T23:01:00.000000001Z')", true],
    ["timestamp('2009-02-13T23:01:00.5Z') < timestamp('2009-02-13T23:01:00.500000001Z')", true],
    ["[timestamp('2009-02-13T23:01:00.000000001Z')] == [timestamp('2009-02-13T23:01:00Z')]", false],
  ];
  for (const [expression, want] of cases) {
    it(`${expression} → ${want}`, () => assert.equal(run(expression), want));
  }

  const overflows = [
    "timestamp('9999-12-31T23:59:59.999999999Z') + duration('1ns')",
    "timestamp('0001-01-01T00:00:00Z') - duration('1ns')",
    "duration('1ns') + timestamp('9999-12-31T23:59:59.999999999Z')",
  ];
  for (const expression of overflows) {
    it(`${expression} fails: timestamp overflow`, () => {
      assert.throws(
        () => run(expression),
        (e: unknown) => e instanceof CelEvaluationError && /timestamp overflow/.test(e.message),
      );
    });
  }

  it('converts between nanoseconds and timestamps, before the epoch too', () => {
    for (const n of [0n, 1n, 999_999n, 1_000_000n, -1n, -1_000_001n, 1234567890123456789n]) {
      const d = timestampFromNanos(n);
      assert.equal(timestampNanos(d), n);
      assert.ok(subMillisecondNanos(d) >= 0 && subMillisecondNanos(d) < 1_000_000);
    }
    assert.equal(timestampFromNanos(-1n).getTime(), -1);
  });

  it('builds durations of one sign and fails beyond int64 nanoseconds', () => {
    const d = durationFromNanos(-1_500_000_000n);
    assert.equal(d.seconds, -1n);
    assert.equal(d.nanos, -500_000_000);
    assert.throws(() => durationFromNanos(2n ** 63n), /integer overflow/);
  });
});

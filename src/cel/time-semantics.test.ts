import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { AUTHENTICATION_CLAIMS_DECLARATIONS } from './declarations.js';
import { CelEnvironmentSet } from './environment-set.js';
import { CelEvaluationError } from './errors.js';
import { compile, evaluate } from './program.js';

describe('timestamps, durations and conversions as in cel-go', () => {
  const env = new CelEnvironmentSet().extend(AUTHENTICATION_CLAIMS_DECLARATIONS).newExpressions;
  const run = (expression: string) => evaluate(compile(expression, env), { claims: {} });

  const values: [expression: string, want: unknown][] = [
    ["int(timestamp('2009-02-13T23:31:30Z'))", 1234567890],
    ["int(timestamp('1969-12-31T23:59:59.5Z'))", -1],
    ["string(timestamp('2009-02-13T23:31:30Z'))", '2009-02-13T23:31:30Z'],
    ["string(timestamp('2009-02-13T23:31:30.120Z'))", '2009-02-13T23:31:30.12Z'],
    ["string(duration('1000000s'))", '1000000s'],
    ["string(duration('1.5s'))", '1.5s'],
    ["string(duration('-90m'))", '-5400s'],
    ["string(duration('1ns'))", '0.000000001s'],
    ['timestamp(timestamp(100)) == timestamp(100)', true],
    ["duration(duration('1m')) == duration('60s')", true],
    ['int(9223372036854775807u)', 9223372036854775807n],
    ["string(b'\\xc3\\xbf')", 'ÿ'],
    ["timestamp('2009-02-13T23:31:30Z').getDayOfMonth('+11:00')", 13],
    ["timestamp('2009-02-13T02:00:00Z').getDayOfMonth('-02:30')", 11],
    ["timestamp('2009-02-13T23:31:30Z').getHours('02:00')", 1],
    ["timestamp('2009-02-13T23:31:30Z').getSeconds('-00:00')", 30],
    ["timestamp('2009-12-31T23:00:00Z').getFullYear('+01:30')", 2010],
    ["timestamp('2009-12-31T23:00:00Z').getDayOfYear('+01:30')", 0],
    ["timestamp('2009-02-13T23:31:30Z').getHours('America/New_York')", 18],
    ["timestamp('0001-01-01T00:00:01Z') - duration('1s') == timestamp('0001-01-01T00:00:00Z')", true],
  ];
  for (const [expression, want] of values) {
    it(`${expression} == ${String(want)}`, () => assert.deepEqual(run(expression), want));
  }

  const errors: [expression: string, message: string][] = [
    ["timestamp('0001-01-01T00:00:00Z') + duration('-1s')", 'timestamp overflow'],
    ["timestamp('9999-12-31T23:59:59Z') + duration('1s')", 'timestamp overflow'],
    ["timestamp('0001-01-01T00:00:00Z') - duration('1s')", 'timestamp overflow'],
    ["timestamp('9999-12-31T23:59:59Z') - timestamp('0001-01-01T00:00:00Z')", 'integer overflow'],
    ["duration('320000000000s')", 'duration overflow'],
    ["duration('-320000000000s')", 'duration overflow'],
    ["duration('9000000000s') + duration('9000000000s')", 'integer overflow'],
    ["duration('-9000000000s') - duration('9000000000s')", 'integer overflow'],
    ['int(18446744073709551615u)', 'integer overflow'],
    ["string(b'\\000\\xff')", 'invalid UTF-8 in bytes, cannot convert to string'],
  ];
  for (const [expression, message] of errors) {
    it(`${expression} fails: ${message}`, () => {
      assert.throws(
        () => run(expression),
        (e: unknown) => e instanceof CelEvaluationError && e.message.includes(message),
      );
    });
  }
});

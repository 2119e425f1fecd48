import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { CelEnvironmentSet } from './environment-set.js';
import { compile, evaluate } from './program.js';

describe('comparisons across numeric types (cel-go v0.22)', () => {
  const env = new CelEnvironmentSet().extend({
    name: 'numbers',
    variables: [{ name: 'x', type: { kind: 'json' } }],
  }).newExpressions;

  const cases: [expression: string, want: boolean][] = [
    // Ordering an integer against a double converts the integer (lossy beyond 2^53), as cel-go does.
    ['dyn(9223372036854775807) < 9223372036854775808.0', false],
    ['dyn(9223372036854775807) >= 9223372036854775808.0', true],
    ['dyn(9223372036854775808.0) > 9223372036854775807', false],
    ['dyn(9223372036854775808.0) <= 9223372036854775807', true],
    ['dyn(18446744073709551615u) < 18446744073709551616.0', false],
    ['dyn(1) < 1.5', true],
    ['dyn(2u) > 1.5', true],
    ['dyn(-1) > -1.5', true],
    ['dyn(1.0) < 2', true],
    ['dyn(1e20) > 9223372036854775807', true],
    ['dyn(-1e20) < -9223372036854775807', true],
    ['dyn(-1.0) < 0u', true],
    ['dyn(0.0/0.0) < 1 || dyn(0.0/0.0) >= 1', false],
    // Membership and container equality by numeric value.
    ['dyn(3u) in [5, 4, 3]', true],
    ['dyn(3u) in [5.0, 3.0]', true],
    ['dyn(3) in [5u, 3u]', true],
    ['dyn(3.5) in [3u]', false],
    ["'a' in ['a', 'b']", true],
    ['[1, 2] == [dyn(1.0), dyn(2u)]', true],
    ['[1, 2] != [dyn(1.0), dyn(2u)]', false],
    ['[1, 2] == dyn([1.0, 2.5])', false],
    ["{'a': 1} == dyn({'a': 1u})", true],
    ["{'a': 1} != dyn({'a': 2u})", true],
    ['x == [1.0]', true],
  ];
  for (const [expression, want] of cases) {
    it(`${expression} is ${want}`, () => assert.equal(evaluate(compile(expression, env), { x: [1] }), want));
  }
});

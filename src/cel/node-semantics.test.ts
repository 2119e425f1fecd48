import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { CelEnvironmentSet } from './environment-set.js';
import { compile, evaluate } from './program.js';
import { parseUnchecked } from './unchecked-program.js';

describe('cel-go semantics installed on parsed nodes', () => {
  const env = new CelEnvironmentSet().extend({ name: 'nodes', variables: [] }).newExpressions;

  const cases: [expression: string, want: unknown][] = [
    // An empty literal as a comprehension's range has dyn elements.
    ['[].all(e, e > 0)', true],
    ['[].exists(e, e == 2)', false],
    ['[].exists_one(e, e == 2)', false],
    ['size([].map(n, n / 2))', 0],
    ['size([].filter(n, n % 2 == 0))', 0],
    ['{}.all(k, k > 0)', true],
    // Elsewhere an empty literal keeps the engine's typing.
    ['[] == []', true],
    ['size([] + [1])', 1],
  ];
  for (const [expression, want] of cases) {
    it(`${expression} → ${want}`, () => assert.equal(evaluate(compile(expression, env), {}), want));
  }

  it('keeps the semantics in expressions evaluated unchecked', () => {
    assert.throws(() => parseUnchecked('{1.5: 1}[1.5]', env).parsed({}), /unsupported key type/);
    assert.equal(parseUnchecked('[7, 8][dyn(1u)]', env).parsed({}), 8n);
  });
});

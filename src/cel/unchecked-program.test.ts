import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { CelEnvironmentSet } from './environment-set.js';
import { CelCompileError } from './errors.js';
import { compile } from './program.js';
import { parseUnchecked } from './unchecked-program.js';

describe('unchecked evaluation (cel-go semantics without the type checker)', () => {
  const env = new CelEnvironmentSet().extend({ name: 'unchecked', variables: [] }).storedExpressions;
  const run = (expression: string) => parseUnchecked(expression, env).parsed({});

  const values: [expression: string, want: unknown][] = [
    ['x || true', true],
    ['f_unknown(17) || true', true],
    ['false && 32', false],
    ["'horses' && false", false],
    ['true || 32', true],
    ["true ? 'cows' : 17", 'cows'],
    ["false ? 'cows' : 17", 17n],
    ['1.0 == 1', true],
    ['2u != 2', false],
    ["['one'] == [2, 3]", false],
    ['[1] == [1.0]', true],
    ['a.while() || true', true],
    ['1 + 2', 3n],
  ];
  for (const [expression, want] of values) {
    it(`${expression} → ${String(want)}`, () => assert.equal(run(expression), want));
  }

  const failures = ['x || false', 'f_unknown(1)', "'horses' && true", "1 ? 'a' : 'b'", "1 + 'a'"];
  for (const expression of failures) {
    it(`${expression} fails when evaluated`, () => assert.throws(() => run(expression)));
  }

  it('the same expressions still do not compile when checked', () => {
    for (const expression of ['x || true', "true ? 'cows' : 17", 'false && 32']) {
      assert.throws(() => compile(expression, env), CelCompileError);
    }
  });

  it('reports syntax errors as compile errors', () => {
    assert.throws(() => parseUnchecked('1 +', env), CelCompileError);
  });
});

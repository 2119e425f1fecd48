import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { AUTHENTICATION_CLAIMS_DECLARATIONS } from './declarations.js';
import { CelEnvironmentSet } from './environment-set.js';
import { CelCompileError, CelEvaluationError } from './errors.js';
import { compile, evaluate } from './program.js';
import { celVersion } from './version.js';

const claims = { groups: ['dev', 'ops'], attrs: { team: 'a', site: 'b' } };

describe('two-variable comprehensions', () => {
  const set = new CelEnvironmentSet({ compatibilityVersion: celVersion(1, 32) });
  const env = set.extend(AUTHENTICATION_CLAIMS_DECLARATIONS).newExpressions;
  const run = (expression: string) => evaluate(compile(expression, env), { claims });

  const cases: [expression: string, want: unknown][] = [
    ['[1, 2].all(i, v, v > i)', true],
    ['[2, 1].all(i, v, v > i)', false],
    ['[1, 2].exists(i, v, i == 1 && v == 2)', true],
    ['[1, 2].existsOne(i, v, v > 0)', false],
    ["{'a': 1, 'b': 2}.existsOne(k, v, k == 'b' && v == 2)", true],
    ["{'a': 1, 'b': 2}.all(k, v, v > 0 && k != '')", true],
    ['[1, 2, 3].transformList(i, v, v * 10 + i)', [10, 21, 32]],
    ['[1, 2, 3].transformList(i, v, v % 2 == 1, v)', [1, 3]],
    ["{'a': 1, 'b': 2}.transformMap(k, v, v + 1)", { a: 2, b: 3 }],
    ["{'a': 1, 'b': 2}.transformMap(k, v, v > 1, k + '!')", { b: 'b!' }],
    ["{'a': 1, 'b': 2}.transformMapEntry(k, v, {v: k})", { 1: 'a', 2: 'b' }],
    ['[10, 20].transformMap(i, v, v + i)', { 0: 10, 1: 21 }],
    ['claims.groups.transformList(i, g, g.upperAscii())', ['DEV', 'OPS']],
    ["claims.attrs.exists(k, v, k == 'site' && v == 'b')", true],
    ['[].exists(i, v, i == 0 || v == 2)', false],
    // A false predicate wins over an error of another element (and a true one for exists).
    ['[0, 1].all(i, v, 1 / v > 1)', false],
    ['[0, 1].exists(i, v, 1 / v == 1)', true],
  ];
  for (const [expression, want] of cases) {
    it(expression, () => {
      assert.deepEqual(run(expression), want);
    });
  }

  for (const [expression, error] of [
    ['[0, 2].all(i, v, 4 / v == 2)', 'division by zero'],
    ["[1, 2].transformMapEntry(i, v, {'k': v})", 'insert failed: key k already exists'],
    ['[0, 1].existsOne(i, v, 1 / v == 1)', 'division by zero'],
  ] as const) {
    it(`${expression} fails: ${error}`, () => {
      assert.throws(
        () => run(expression),
        (e: unknown) => e instanceof CelEvaluationError && e.message.includes(error),
      );
    });
  }

  for (const expression of [
    '[1].all(i, i, true)',
    '[1].all(i, 1, true)',
    '[1].transformList(i, v, v, v)',
    '1.all(i, v, true)',
  ]) {
    it(`${expression} does not compile`, () => {
      assert.throws(() => compile(expression, env), CelCompileError);
    });
  }

  it('are available to new expressions from compatibility version 1.32, to stored ones always', () => {
    const older = new CelEnvironmentSet({ compatibilityVersion: celVersion(1, 31) }).extend(
      AUTHENTICATION_CLAIMS_DECLARATIONS,
    );
    const expression = '[1].all(i, v, v > i)';
    assert.throws(() => compile(expression, older.newExpressions), CelCompileError);
    assert.equal(evaluate(compile(expression, older.storedExpressions), { claims }), true);
  });
});

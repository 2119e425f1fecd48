import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { AUTHENTICATION_CLAIMS_DECLARATIONS } from './declarations.js';
import { CelEnvironmentSet } from './environment-set.js';
import { CelCompileError, CelEvaluationError } from './errors.js';
import { compile, evaluate } from './program.js';
import { celVersion } from './version.js';

const claims = { email: 'a@example.com', empty: '', n: 0, nested: { team: 'x' } };

describe('optional functions', () => {
  const env = new CelEnvironmentSet().extend(AUTHENTICATION_CLAIMS_DECLARATIONS).newExpressions;
  const run = (expression: string) => evaluate(compile(expression, env), { claims });

  const cases: [expression: string, want: unknown][] = [
    ["claims.?email.optMap(e, e.split('@')[1]).orValue('none')", 'example.com'],
    ["claims.?missing.optMap(e, e + '!').orValue('none')", 'none'],
    ['optional.none().optMap(y, y + 1).hasValue()', false],
    ['optional.of(41).optMap(y, y + 1).value()', 42],
    ["claims.?nested.optFlatMap(n, n.?team).orValue('')", 'x'],
    ["claims.?nested.optFlatMap(n, n.?site).orValue('none')", 'none'],
    ['{}.?key.optFlatMap(k, k.?subkey).hasValue()', false],
    ["optional.ofNonZeroValue(claims.empty).orValue('default')", 'default'],
    ["optional.ofNonZeroValue(claims.email).orValue('default')", 'a@example.com'],
    ['optional.ofNonZeroValue(claims.n).hasValue()', false],
    ['optional.ofNonZeroValue(null).hasValue()', false],
    ['optional.ofNonZeroValue(false).hasValue()', false],
    ['optional.ofNonZeroValue([]).hasValue()', false],
    ['optional.ofNonZeroValue({}).hasValue()', false],
    ["optional.ofNonZeroValue(b'').hasValue()", false],
    ["optional.ofNonZeroValue(duration('0s')).hasValue()", false],
    ['optional.ofNonZeroValue(timestamp(0)).hasValue()', false],
    ['optional.ofNonZeroValue(uint(0)).hasValue()', false],
    ['optional.ofNonZeroValue([0]).hasValue()', true],
    ['optional.none() == optional.none()', true],
    ['optional.of(1) == optional.of(1)', true],
    ['optional.of(1) == optional.none()', false],
    ['optional.of(1) != optional.of(2)', true],
    ["claims.?email == optional.of('a@example.com')", true],
  ];
  for (const [expression, want] of cases) {
    it(`${expression} == ${JSON.stringify(want)}`, () => assert.deepEqual(run(expression), want));
  }

  it('optFlatMap needs an optional result', () => {
    assert.throws(() => compile('optional.of(1).optFlatMap(x, x + 1)', env), CelCompileError);
  });

  it('optMap needs a simple variable name', () => {
    assert.throws(() => compile('optional.of(1).optMap(x.y, 1)', env), CelCompileError);
  });

  it('optMap on a non-optional dynamic value fails at evaluation', () => {
    assert.throws(() => run('dyn(1).optMap(x, x)'), CelEvaluationError);
  });

  it('are not there without optional types (before compatibility version 1.28)', () => {
    const old = new CelEnvironmentSet({ compatibilityVersion: celVersion(1, 27) }).extend(
      AUTHENTICATION_CLAIMS_DECLARATIONS,
    ).newExpressions;
    assert.throws(() => compile('optional.ofNonZeroValue(1).hasValue()', old), CelCompileError);
  });
});

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { AUTHENTICATION_CLAIMS_DECLARATIONS } from './declarations.js';
import { CelEnvironmentSet } from './environment-set.js';
import { CelCompileError } from './errors.js';
import { versionedCelLibraries } from './library/index.js';
import { compile, evaluate } from './program.js';

describe('homogeneous aggregate literals', () => {
  const env = new CelEnvironmentSet({ libraries: versionedCelLibraries() }).extend(
    AUTHENTICATION_CLAIMS_DECLARATIONS,
  ).newExpressions;
  const claims = { sub: 'u1', groups: ['a'] };

  const accepted: [expression: string, want: unknown][] = [
    ["[1, dyn('a')]", [1, 'a']],
    ["[dyn(1), 'a']", [1, 'a']],
    ["[claims.sub, 'x']", ['u1', 'x']],
    ["['x', claims.sub]", ['x', 'u1']],
    ["{'a': 1, 'b': dyn('x')}", { a: 1, b: 'x' }],
    ["{claims.sub: 1, 'b': 2}", { u1: 1, b: 2 }],
    ["[[1], [dyn('a')]]", [[1], ['a']]],
    ['[[], [1]]', [[], [1]]],
    ["[{}, {'a': 1}]", [{}, { a: 1 }]],
    ["'%s and %d'.format(['a', 1])", 'a and 1'],
  ];
  for (const [expression, want] of accepted) {
    it(`${expression} compiles`, () => assert.deepEqual(evaluate(compile(expression, env), { claims }), want));
  }

  const rejected: [expression: string, message: string][] = [
    ["[1, 'a']", "1:5: expected type 'int' but found 'string'"],
    ['[1, 2.0]', "1:5: expected type 'int' but found 'double'"],
    ["{'a': 1, 2: 1}", "1:10: expected type 'string' but found 'int'"],
    ["{'a': 1, 'b': 'x'}", "1:15: expected type 'int' but found 'string'"],
    ["[[1], ['a']]", "1:7: expected type 'list(int)' but found 'list(string)'"],
    ["[1, [1, 'a']]", "1:9: expected type 'int' but found 'string'"],
    ["size([1, 'a']) > 0", "1:10: expected type 'int' but found 'string'"],
  ];
  for (const [expression, message] of rejected) {
    it(`${expression} does not compile: ${message}`, () => {
      assert.throws(
        () => compile(expression, env),
        (e: unknown) => e instanceof CelCompileError && e.message.includes(message),
      );
    });
  }

  it('with the rule turned off (tests only), the same literals compile and evaluate', () => {
    const relaxed = new CelEnvironmentSet({
      libraries: versionedCelLibraries(),
      homogeneousAggregateLiterals: false,
    }).extend(AUTHENTICATION_CLAIMS_DECLARATIONS).newExpressions;
    const cases: [expression: string, want: unknown][] = [
      ["[1, 'a']", [1, 'a']],
      ["{'a': 1, 2: 'x'}", { a: 1, 2: 'x' }],
      ["size([1, [1, 'a']])", 2],
    ];
    for (const [expression, want] of cases) assert.deepEqual(evaluate(compile(expression, relaxed), { claims }), want);
  });
});

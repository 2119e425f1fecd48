import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { UnsignedInt } from '@marcbachmann/cel-js/evaluator';
import { CelEnvironmentSet } from './environment-set.js';
import { CelEvaluationError } from './errors.js';
import { buildMapLiteral, CelMap } from './map-literals.js';
import { compile, evaluate } from './program.js';

const fail = (message: string) => new Error(message);

describe('map literals as cel-go builds them', () => {
  const kube = new CelEnvironmentSet().extend({ name: 'maps', variables: [] }).newExpressions;
  const mixed = new CelEnvironmentSet({ homogeneousAggregateLiterals: false }).extend({
    name: 'maps',
    variables: [],
  }).newExpressions;

  const cases: [expression: string, want: boolean][] = [
    // Non-string keys keep their type: comprehensions see ints and bools.
    ["{6: 'six', 7: 'seven', 8: 'eight'}.exists_one(k, k % 5 == 2)", true],
    ["{6: 'six'}.all(k, k > 5)", true],
    ["{true: 'yes'}.all(k, k)", true],
    // Lookups find a numeric key by value across int, uint and double.
    ["{1: 'a'}[1] == 'a'", true],
    ["{1: 'a'}[1u] == 'a'", true],
    ["{1: 'a'}[1.0] == 'a'", true],
    ["{1u: 'a'}[1] == 'a'", true],
    ["dyn(1.0) in {1: 'a'}", true],
    ["2 in {1: 'a'}", false],
    ["{1: 'a'} == {1: 'a'}", true],
    ["{1: 'a'} == {2: 'a'}", false],
    ['size({1: 1, 2: 2})', true],
    // String keys behave as before.
    ["{'a': 1}.a == 1", true],
    ["{'a': 1, 'b': 2}.all(k, k in ['a', 'b'])", true],
  ];
  for (const [expression, want] of cases) {
    it(`${expression} is ${want}`, () => {
      const got = evaluate(compile(expression, kube), {});
      assert.equal(typeof got === 'boolean' ? got : got === 2 || got === 2n, want);
    });
  }

  const errors: [expression: string, message: string][] = [
    ['{true: 1, false: 2, true: 3}[true]', 'Failed with repeated key'],
    ["{'a': 1, 'a': 2}.a", 'Failed with repeated key'],
    ['{0: 1, 0u: 2}[0]', 'Failed with repeated key'],
    ['{1.5: 1}[1.5]', 'unsupported key type'],
    ['{null: 1}[null]', 'unsupported key type'],
  ];
  for (const [expression, message] of errors) {
    it(`${expression} fails: ${message}`, () => {
      assert.throws(
        () => evaluate(compile(expression, mixed), {}),
        (e: unknown) => e instanceof CelEvaluationError && e.message.toLowerCase().includes(message.toLowerCase()),
      );
    });
  }
});

describe('buildMapLiteral', () => {
  it('keeps a string-keyed literal a plain object, leaving out keys an object must not set', () => {
    const m = buildMapLiteral(
      [
        ['a', 1],
        ['__proto__', 2],
      ],
      fail,
    );
    assert.deepEqual(Object.entries(m as object), [['a', 1]]);
    assert.equal(Object.getPrototypeOf(m), Object.prototype);
  });

  it('makes a map with other keys a CelMap that the engine sees as a Map', () => {
    const m = buildMapLiteral(
      [
        [1n, 'a'],
        [true, 'b'],
      ],
      fail,
    ) as Map<unknown, unknown>;
    assert.ok(m instanceof CelMap);
    assert.equal(m.constructor, Map);
    assert.equal(m.get(1n), 'a');
    assert.equal(m.get(new UnsignedInt(1)), 'a');
    assert.equal(m.get(1), 'a');
    assert.equal(m.get(1.5), undefined);
    assert.equal(m.get(true), 'b');
    assert.equal(m.has('1'), false);
    assert.deepEqual([...m.keys()], [1n, true]);
  });

  const rejected: [entries: [unknown, unknown][], message: string][] = [
    [
      [
        [1n, 'a'],
        [new UnsignedInt(1), 'b'],
      ],
      'Failed with repeated key',
    ],
    [
      [
        ['x', 1],
        ['x', 2],
      ],
      'Failed with repeated key',
    ],
    [[[2.5, 1]], 'unsupported key type'],
    [[[null, 1]], 'unsupported key type'],
    [[[[1n], 1]], 'unsupported key type'],
  ];
  for (const [entries, message] of rejected) {
    it(`rejects ${message}: ${entries.length} entries`, () => {
      assert.throws(() => buildMapLiteral(entries, fail), { message });
    });
  }
});

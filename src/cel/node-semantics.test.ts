import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Optional } from '@marcbachmann/cel-js';
import { CelEnvironmentSet } from './environment-set.js';
import { compile, evaluate } from './program.js';
import { parseSource } from './source-rewrite.js';
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

  it('leaves a chain of fields from a variable that never holds an optional to the engine', () => {
    const typed = new CelEnvironmentSet().extend({
      name: 'typed',
      variables: [
        { name: 'm', type: { kind: 'native', celType: 'map<string, map<string, int>>' } },
        { name: 'o', type: { kind: 'native', celType: 'optional<map<string, int>>' } },
      ],
    }).newExpressions;
    const macroOf = (expression: string) => {
      const ast = parseSource(typed.engine, expression, typed.optionalFreeVariables).ast as unknown as {
        readonly meta: { readonly macro?: unknown };
      };
      return ast.meta.macro;
    };
    assert.deepEqual([...typed.optionalFreeVariables], ['m']);
    assert.equal(macroOf('m.a.b'), undefined);
    assert.notEqual(macroOf('o.a'), undefined);
    assert.notEqual(macroOf('m.?a.b'), undefined);
    assert.notEqual(macroOf("{'a': 1}.a"), undefined);
    assert.equal(evaluate(compile('o.a.orValue(0)', typed), { o: Optional.of({ a: 2n }) }), 2);
    assert.equal(evaluate(compile('o.a.hasValue()', typed), { o: Optional.none() }), false);
  });

  it('keeps the semantics in expressions evaluated unchecked', () => {
    assert.throws(() => parseUnchecked('{1.5: 1}[1.5]', env).parsed({}), /unsupported key type/);
    assert.equal(parseUnchecked('[7, 8][dyn(1u)]', env).parsed({}), 8n);
  });
});

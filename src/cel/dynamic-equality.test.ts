import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { admissionDeclarations } from './declarations.js';
import { CelEnvironmentSet } from './environment-set.js';
import { CelCompileError } from './errors.js';
import { compile, evaluate } from './program.js';

describe('heterogeneous equality of dynamic values', () => {
  const env = new CelEnvironmentSet().extend(admissionDeclarations({ hasParams: true })).newExpressions;
  const object = { spec: { ratio: 0.5, replicas: 2, name: 'web', tags: ['a'] } };
  const params = { ratio: 0.5, replicas: 2.0, limit: 'none' };
  const run = (expression: string) => evaluate(compile(expression, env), { object, params });

  const cases: [expression: string, want: boolean][] = [
    ['object.spec.ratio == params.ratio', true],
    ['object.spec.replicas == params.replicas', true],
    ['object.spec.replicas == 2.0', true],
    ['object.spec.replicas != 2.5', true],
    ['object.spec.name == 1', false],
    ['object.spec.name != 1', true],
    ['params.limit == object.spec.replicas', false],
    ["object.spec.tags == ['a']", true],
    ['object.spec.tags == [1]', false],
    ['dyn(2u) == 2 && dyn(2) == 2u && dyn(2.0) == 2u', true],
    ["dyn({'a': 1}) == {'a': 1.0}", true],
  ];
  for (const [expression, want] of cases) {
    it(`${expression} == ${want}`, () => assert.equal(run(expression), want));
  }

  it('keeps static mismatches compile errors', () => {
    assert.throws(() => compile("1 == 'a'", env), CelCompileError);
    assert.throws(() => compile('1 == 1.0', env), CelCompileError);
  });
});

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Schema } from '../apis/schema/schema.js';
import { crdValidationDeclarations } from './declarations.js';
import { CelEnvironmentSet } from './environment-set.js';
import { CelCompileError, CelEvaluationError } from './errors.js';
import { compile, evaluate } from './program.js';

const schema: Schema = {
  type: 'object',
  properties: {
    items: {
      type: 'array',
      items: { type: 'object', properties: { name: { type: 'string', nullable: true }, size: { type: 'integer' } } },
    },
    labels: { type: 'object', additionalProperties: { type: 'string' } },
  },
};

describe('has() on any operand', () => {
  const env = new CelEnvironmentSet().extend(crdValidationDeclarations(schema)).newExpressions;
  const self = { items: [{ name: 'a' }, { name: null, size: 1 }], labels: { app: 'web' } };
  const run = (expression: string) => evaluate(compile(expression, env), { self });

  const cases: [expression: string, want: boolean][] = [
    ['has(self.items[0].name)', true],
    ['has(self.items[1].name)', false],
    ['has(self.items[0].size)', false],
    ['self.items.filter(i, has(i.size)).size() == 1', true],
    ["has({'a': 1}.a)", true],
    ["has({'a': 1}.b)", false],
    ['has({}.a)', false],
    ['has([self.labels][0].app)', true],
    ["has(dyn({'x': {'y': 1}}).x)", true],
    ['has(self.labels.app)', true],
    ['has(self.labels.team)', false],
  ];
  for (const [expression, want] of cases) {
    it(`${expression} == ${want}`, () => assert.equal(run(expression), want));
  }

  it('rejects a field the object type does not have, and operands without fields', () => {
    assert.throws(() => compile('has(self.items[0].nope)', env), CelCompileError);
    assert.throws(() => compile('has(self.items[0].name.x)', env), CelCompileError);
    assert.throws(() => compile('has((1 + 2).a)', env), CelCompileError);
  });

  it('fails at evaluation on a dynamic value without fields', () => {
    assert.throws(() => run('has(dyn(1).a)'), CelEvaluationError);
  });
});

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Environment } from '@marcbachmann/cel-js';
import type { Schema } from '../../apis/schema/schema.js';
import { CelEnvironmentSet } from '../environment-set.js';
import { compile } from '../program.js';
import { CostLimitError, checkEstimatedCost, costErrorMessage, ObjectCostBudget } from './cost-budget.js';
import { estimateCost } from './cost-estimator.js';
import { COST, UNBOUNDED } from './cost-model.js';
import { schemaSizeBound, valueSizeBound } from './size-bounds.js';

const env = new Environment({ unlistedVariablesAreDyn: true });
const ast = (expr: string) => env.parse(expr).ast;

function schema(items: Schema, o: { maxItems?: number; maxLength?: number } = {}): Record<string, Schema> {
  return {
    self: {
      type: 'object',
      properties: {
        name: { type: 'string', ...(o.maxLength !== undefined ? { maxLength: o.maxLength } : {}) },
        items: { type: 'array', items, ...(o.maxItems !== undefined ? { maxItems: o.maxItems } : {}) },
        replicas: { type: 'integer' },
      },
    },
  };
}

describe('CEL cost estimate', () => {
  const bounded = schemaSizeBound(schema({ type: 'string', maxLength: 10 }, { maxItems: 5, maxLength: 20 }));
  const cases: [string, number][] = [
    // one select chain: ident 1 + select 1 + select 1 ... plus one comparison
    ['self.replicas <= 3', 3],
    ['true', 0],
    ["'abc'", 0],
    ['[1, 2, 3]', COST.listCreateBase],
    ["{'a': 1}", COST.mapCreateBase],
    // startsWith walks at most 20 characters (a tenth each) after the select and the call
    ["self.name.startsWith('a')", 2 + 1 + 2],
    // all(): the range (2), then for each of at most 5 items a step (1) and the body
    // (i 1 + size call 1 + comparison 1)
    ['self.items.all(i, i.size() < 5)', 2 + 5 * (1 + 3)],
    // regex: input length 20 × pattern length 4 × 0.25
    ["self.name.matches('^a+$')", 2 + 1 + 20],
    ['has(self.name)', 2],
    ['self.replicas > 1 ? self.name : "x"', 3 + 2],
  ];
  for (const [expr, want] of cases) {
    it(`${expr} → ${want}`, () => assert.equal(estimateCost(ast(expr), bounded).cost, want));
  }

  it('assumes the request size limit where the schema sets none, and so rejects quadratic rules', () => {
    const unbounded = schemaSizeBound(schema({ type: 'string' }));
    const quadratic = ast('self.items.all(a, self.items.all(b, a == b))');
    const { cost } = estimateCost(quadratic, unbounded);
    assert.ok(cost > UNBOUNDED.list * UNBOUNDED.list);
    assert.equal(
      checkEstimatedCost(quadratic, unbounded),
      'estimated rule cost exceeds budget by factor of more than 100x (try simplifying the rule, or adding maxItems, maxProperties, and maxLength where arrays, maps, and strings are declared)',
    );
    // With limits in the schema the same rule is accepted.
    const small = schemaSizeBound(schema({ type: 'string', maxLength: 10 }, { maxItems: 100 }));
    assert.equal(checkEstimatedCost(quadratic, small), undefined);
  });

  it('words the factor as kube does', () => {
    assert.match(costErrorMessage('estimated rule cost', 12, 10), /factor of 1\.200000x/);
    assert.match(costErrorMessage('estimated rule cost', 25, 10), /factor of 2\.5x/);
    assert.match(costErrorMessage('estimated rule cost', 2000, 10), /factor of more than 100x/);
  });

  it('is deterministic for the same expression and input', () => {
    const expr = ast("self.items.exists(i, i.contains('x')) && self.name.size() > 2");
    const input = { self: { name: 'abcdef', items: ['a', 'bb', 'ccc'] } };
    const a = estimateCost(expr, valueSizeBound(input)).cost;
    const b = estimateCost(expr, valueSizeBound(structuredClone(input))).cost;
    assert.equal(a, b);
    assert.ok(a > 0);
  });
});

describe('CEL runtime budget', () => {
  it('charges each evaluation its cost on the input', () => {
    const budget = new ObjectCostBudget(1000, 1000);
    const expr = ast('self.items.all(i, i.size() < 5)');
    const cost = budget.charge(expr, { self: { items: ['a', 'b', 'c'] } }, 'rule');
    assert.equal(cost, 2 + 3 * 4);
    assert.equal(budget.left, 1000 - cost);
  });

  it('stops a rule over the per-call limit with kube message, leaving the others', () => {
    const budget = new ObjectCostBudget(1_000_000, 100);
    const expr = ast('self.items.all(i, i.size() < 5)');
    const big = { self: { items: Array.from({ length: 50 }, () => 'x') } };
    assert.throws(
      () => budget.charge(expr, big, 'self.items.all(i, i.size() < 5)'),
      (e: unknown) =>
        e instanceof CostLimitError &&
        e.scope === 'call' &&
        e.message === 'call cost exceeds limit for rule: self.items.all(i, i.size() < 5)',
    );
    assert.equal(budget.charge(expr, { self: { items: ['a'] } }, 'r'), 2 + 4);
  });

  it('stops every further rule once the object total is spent', () => {
    const budget = new ObjectCostBudget(40, 1000);
    const expr = ast('self.items.all(i, i.size() < 5)');
    const input = { self: { items: ['a', 'b', 'c'] } };
    budget.charge(expr, input, 'r1');
    budget.charge(expr, input, 'r2');
    assert.throws(
      () => budget.charge(expr, input, 'r3'),
      (e: unknown) =>
        e instanceof CostLimitError &&
        e.scope === 'object' &&
        e.message === 'validation failed due to running out of cost budget, no further validation rules will be run',
    );
    assert.equal(budget.left, 0);
    assert.throws(() => budget.charge(ast('true'), {}, 'r4'), CostLimitError);
  });
});

describe('CEL cost estimate of optional constructs (cel-go: a literal costs its base and its entries; selecting a field of an optional value costs only the operand)', () => {
  const env = new CelEnvironmentSet().extend({
    name: 'optional-cost',
    variables: [{ name: 'm', type: { kind: 'native', celType: 'map<string, map<string, string>>' } }],
  }).newExpressions;
  const bounds = schemaSizeBound({});
  const cases: [expression: string, want: number][] = [
    // base + optional.of(1) (one call) + 2 (a constant)
    ['[?optional.of(1), 2]', COST.listCreateBase + COST.call],
    // base + key (constant) + m.?a (m 1 + the optional selection, a call 1)
    ["{?'k': m.?a}", COST.mapCreateBase + COST.selectOrIdent + COST.call],
    // optional.of(m) (m 1 + call 1); `.c` on the optional adds nothing
    ['optional.of(m).c', COST.selectOrIdent + COST.call],
    // m.?a (2), then `.b` on the optional adds nothing
    ['m.?a.b', COST.selectOrIdent + COST.call],
    // a field of a map adds one
    ['m.a', 2 * COST.selectOrIdent],
  ];
  for (const [expression, want] of cases) {
    it(`${expression} → ${want}`, () => assert.equal(estimateCost(compile(expression, env).ast, bounds).cost, want));
  }
});

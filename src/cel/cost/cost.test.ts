import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Environment } from '@marcbachmann/cel-js';
import type { Schema } from '../../apis/schema/schema.js';
import { forEachNode } from '../ast-walk.js';
import { ADMISSION_DECLARATIONS, crdValidationDeclarations } from '../declarations.js';
import { CelEnvironmentSet } from '../environment-set.js';
import { isFunctionNamespace } from '../function-namespaces.js';
import { versionedCelLibraries } from '../library/index.js';
import { compile } from '../program.js';
import { CostLimitError, checkEstimatedCost, costErrorMessage, ObjectCostBudget } from './cost-budget.js';
import { estimateCost, type SizeBound } from './cost-estimator.js';
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
    // startsWith (cel-go): a tenth of the prefix's length, rounded up, after the select
    ["self.name.startsWith('a')", 2 + 1],
    // all(): the range (2) and the result (1), then for each of at most 5 items the loop
    // condition and step (3) and the body (i 1 + size call 1 + comparison 1)
    ['self.items.all(i, i.size() < 5)', 2 + 1 + 5 * (3 + 3)],
    // regex: ceil(0.1 × (input 80 + 1)) × ceil(0.25 × pattern 4); maxLength 20 is 80 bytes
    ["self.name.matches('^a+$')", 2 + 9 * 1],
    // a presence test costs its operand only (kube: cel-go's PresenceTestHasCost(false))
    ['has(self.name)', 1],
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
    // cel-go's runtime tracker: range 2, result 1, per element condition and step 3 + body 3
    assert.equal(cost, 2 + 1 + 3 * 6);
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
    assert.equal(budget.charge(expr, { self: { items: ['a'] } }, 'r'), 2 + 1 + 6);
  });

  it('stops every further rule once the object total is spent', () => {
    const budget = new ObjectCostBudget(50, 1000);
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

/**
 * Estimates compared with figures derived by hand from cel-go v0.22's estimator
 * (`checker/cost.go`) with kube-apiserver v1.32's options:
 * - an identifier costs 1; a field selection `x.f` costs 1 only when `x` is a map, an object or
 *   a type parameter (nothing on `dyn` or an optional); `x.?f` is the call `_?._` (1 + operand);
 * - `has(x.f)` costs `x` only (kube sets `PresenceTestHasCost(false)`);
 * - a call without its own estimate costs 1 plus its target and arguments; `&&` and `||` their
 *   operands only; `==` `ceil(0.1 * min(size(lhs), size(rhs)))` plus its operands, where a
 *   literal's size is its length (scalars 1) and an unbounded value's size is huge;
 * - a list literal 40, a map literal 30, plus their elements;
 * - `sets.contains` and `sets.intersects` (cel-go `ext/sets.go`) 1 + size(a) * size(b),
 *   `sets.equivalent` twice the product; the namespace `sets` is part of the function's name and
 *   is not read (no identifier cost), as for `optional.of`.
 */
describe('CEL cost estimate as cel-go derives it, over dynamic and schema-typed variables', () => {
  const libraries = versionedCelLibraries();
  const admission = new CelEnvironmentSet({ libraries }).extend(ADMISSION_DECLARATIONS).newExpressions;
  const unbounded: SizeBound = () => undefined;
  const dynamicCases: [expression: string, want: number, derivation: string][] = [
    ["object.metadata.name == 'x'", 2, 'object 1, .metadata 0, .name 0 (dyn); == ceil(0.1 * min(∞, 1)) = 1'],
    ['has(object.spec) && object.spec.replicas > 1', 3, 'has: object 1; object 1 + 0 + 0, > 1; && 0'],
    [
      'object.metadata.?labels.orValue({}).size() > 0',
      35,
      'object 1, .metadata 0, .?labels 1; {} 30, orValue 1; size 1; > 1',
    ],
    [
      'optional.of(object.metadata.name).hasValue()',
      3,
      'object 1, selections 0; optional.of 1 (no namespace read); hasValue 1',
    ],
    ["sets.contains(['a', 'b'], ['a'])", 83, 'lists 40 + 40; sets.contains 1 + 2 * 1 (no namespace read)'],
    ["sets.equivalent(['a'], ['a'])", 83, 'lists 40 + 40; sets.equivalent 1 + 2 * 1 * 1'],
  ];
  for (const [expression, want, derivation] of dynamicCases) {
    it(`object (dyn): ${expression} → ${want} (${derivation})`, () =>
      assert.equal(estimateCost(compile(expression, admission).ast, unbounded).cost, want));
  }

  const schema: Schema = {
    type: 'object',
    properties: {
      spec: {
        type: 'object',
        properties: {
          replicas: { type: 'integer' },
          name: { type: 'string' },
          tags: { type: 'array', maxItems: 5, items: { type: 'string', maxLength: 10 } },
          labels: { type: 'object', additionalProperties: { type: 'string' } },
        },
      },
    },
  };
  const crd = new CelEnvironmentSet({ libraries }).extend(crdValidationDeclarations(schema)).newExpressions;
  const bound = schemaSizeBound({ self: schema });
  const typedCases: [expression: string, want: number, derivation: string][] = [
    ['self.spec.replicas <= 3', 4, 'self 1, .spec 1, .replicas 1 (objects); <= 1'],
    ['has(self.spec.name)', 2, 'self 1, .spec 1; the presence test 0'],
    [
      "self.?spec.name.orValue('') == 'a'",
      4,
      'self 1, .?spec 1, .name 0 (optional); orValue 1; == ceil(0.1 * min(∞, 1)) = 1',
    ],
    ["self.spec.labels.a == 'x'", 5, 'self 1, .spec 1, .labels 1, .a 1 (a map); == 1'],
    ["sets.intersects(self.spec.tags, ['a'])", 49, 'self 1, .spec 1, .tags 1; list 40; 1 + 5 * 1'],
  ];
  for (const [expression, want, derivation] of typedCases) {
    it(`self (schema): ${expression} → ${want} (${derivation})`, () =>
      assert.equal(estimateCost(compile(expression, crd).ast, bound).cost, want));
  }

  it('charges a macro variable named like a namespace as the variable it is', () => {
    // The body's `sets` (the receiver of `size()`) is the string element, not the namespace.
    const program = compile('self.spec.tags.all(sets, sets.size() > 0)', crd);
    const reads: { op: string; args: unknown; checkedType?: { name: string } }[] = [];
    forEachNode(program.ast, (node) => {
      const args = node.args as unknown[];
      if (node.op === 'rcall' && args[0] === 'size') reads.push(args[1] as (typeof reads)[number]);
    });
    assert.equal(reads.length, 1);
    assert.equal(reads[0].args, 'sets');
    assert.equal(isFunctionNamespace(reads[0]), false);
    const namespaced = compile("sets.contains(['a'], ['a'])", crd).ast;
    const receiver = (namespaced.args as unknown[])[1] as { op: string; args: unknown };
    assert.equal(isFunctionNamespace(receiver), true);
  });
});

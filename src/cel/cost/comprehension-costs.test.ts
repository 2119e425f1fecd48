import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Schema } from '../../apis/schema/schema.js';
import { crdValidationDeclarations } from '../declarations.js';
import { CelEnvironmentSet } from '../environment-set.js';
import { versionedCelLibraries } from '../library/index.js';
import { compile } from '../program.js';
import { celVersion } from '../version.js';
import { ObjectCostBudget } from './cost-budget.js';
import { estimateCost } from './cost-estimator.js';
import { codePoints } from './cost-operators.js';
import { schemaSizeBound } from './size-bounds.js';

/**
 * Comprehension and equality costs derived by hand from cel-go v0.22: each macro expands to a
 * loop (`parser/macro.go`, `ext/comprehensions.go`) that `checker/cost.go` charges as range +
 * accumulator init + result + size(range) × (loop condition + step). The accumulator and each
 * identifier cost 1, a call 1 (`&&`, `||`, `?:` only their operands), a list literal 40, a map
 * literal 30. Over `self` below: `self.l` costs 2 (self 1, a field of an object 1), holds at
 * most 10 ints; `self.m` at most 4 entries.
 */
const schema: Schema = {
  type: 'object',
  properties: {
    l: { type: 'array', maxItems: 10, items: { type: 'integer' } },
    s: { type: 'array', maxItems: 10, items: { type: 'string', maxLength: 5 } },
    m: { type: 'object', maxProperties: 4, additionalProperties: { type: 'string', maxLength: 5 } },
    name: { type: 'string', maxLength: 25 },
    data: { type: 'string', format: 'byte', maxLength: 30 },
  },
};
const set = new CelEnvironmentSet({ libraries: versionedCelLibraries(), compatibilityVersion: celVersion(1, 32) });
const env = set.extend(crdValidationDeclarations(schema)).newExpressions;
const bound = schemaSizeBound({ self: schema });
const cost = (expression: string) => estimateCost(compile(expression, env).ast, bound).cost;

describe('CEL cost estimate of comprehensions (cel-go v0.22 macro expansions)', () => {
  const cases: [expression: string, want: number, derivation: string][] = [
    ['self.l.all(x, x > 0)', 2 + 1 + 10 * (3 + 2), 'condition @not_strictly_false(acc) 2, step acc && p 1 + p'],
    ['self.l.exists(x, x > 0)', 2 + 1 + 10 * (4 + 2), 'condition @not_strictly_false(!acc) 3, step acc || p 1 + p'],
    ['self.l.exists_one(x, x > 0)', 2 + 2 + 10 * (2 + 2), 'step p ? acc + 1 : acc (2 + p), result acc == 1 (2)'],
    ['self.l.map(x, x * 2)', 2 + 41 + 10 * (42 + 2), 'init [] 40, step acc + [f] (1 + 1 + 40 + f), result 1'],
    ['self.l.map(x, x > 0, x * 2)', 2 + 41 + 10 * (42 + 2 + 2), 'step p ? acc + [f] : acc'],
    ['self.l.filter(x, x > 0)', 2 + 41 + 10 * (43 + 2), 'step p ? acc + [x] : acc (1 + 1 + 40 + 1 + p)'],
    ['self.l.all(i, v, v > i)', 2 + 1 + 10 * (3 + 3), 'two variables: as all'],
    ['self.l.exists(i, v, v > i)', 2 + 1 + 10 * (4 + 3), 'two variables: as exists'],
    ['self.l.existsOne(i, v, v > i)', 2 + 2 + 10 * (2 + 3), 'two variables: as exists_one'],
    ['self.l.transformList(i, v, v)', 2 + 41 + 10 * (42 + 1), 'init [], step acc + [t]'],
    ['self.l.transformList(i, v, v > 0, v)', 2 + 41 + 10 * (42 + 2 + 1), 'with a filter'],
    ['self.m.transformMap(k, v, v)', 2 + 31 + 4 * (3 + 1), 'init {} 30, step @mapInsert(acc, k, t) 3 + t'],
    [
      "self.m.transformMapEntry(k, v, {k: v + 'x'})",
      2 + 31 + 4 * (2 + 30 + 1 + 1 + 3),
      "step @mapInsert(acc, e) 2 + e; e: map 30, k 1, v 1, v + 'x' ceil(0.1 × (20 + 1)) = 3",
    ],
    // map keys: kube gives them no size, so comparing a key with a literal costs nothing
    ["self.m.all(k, k == 'a')", 2 + 1 + 4 * (3 + 1 + 0), 'the key variable 1, == ceil(0.1 × min(0, 1)) 0'],
    // nested: the inner loop's total is the outer body
    ['self.l.all(x, self.l.exists(y, x == y))', 2 + 1 + 10 * (3 + (2 + 1 + 10 * (4 + 2))), 'x == y: scalars of size 0'],
  ];
  for (const [expression, want, derivation] of cases) {
    it(`${expression} → ${want} (${derivation})`, () => assert.equal(cost(expression), want));
  }
});

describe('CEL cost estimate of equality and comparison (cel-go: ceil(0.1 × the smaller largest size))', () => {
  const cases: [expression: string, want: number, derivation: string][] = [
    ["self.name == 'abc'", 2 + 1, 'min(100, 3) → ceil(0.3) = 1'],
    ["self.name != ''", 2 + 0, 'an empty string has size 0'],
    ['self.name == self.name', 4 + 10, 'min(100, 100) → 10'],
    ['self.name < self.name', 4 + 10, 'string ordering as equality'],
    ["self.data == b'abcdefghijklmnopqrstu'", 2 + 3, 'bytes: maxLength 30 (no × 4), literal 21 → ceil(2.1) = 3'],
    ['self.s == self.s', 4 + 1, 'lists of at most 10 → ceil(1.0) = 1'],
    ['self.l == [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11]', 2 + 40 + 1, 'a list literal has its length (11), min 10'],
    ['self.m == self.m', 4 + 1, 'maps of at most 4 entries → ceil(0.4) = 1'],
    ['self.l[0] < 3', 3 + 1, 'int ordering: 1'],
    ["self.name + 'abcde' == 'x'", 2 + 11 + 1, 'concatenation ceil(0.1 × (100 + 5)) = 11, result 105 vs 1'],
  ];
  for (const [expression, want, derivation] of cases) {
    it(`${expression} → ${want} (${derivation})`, () => assert.equal(cost(expression), want));
  }
});

describe("CEL runtime cost of comprehensions (cel-go's interpreter/runtimecost.go per element)", () => {
  const cases: [expression: string, self: unknown, want: number, derivation: string][] = [
    ['self.l.all(x, x > 0)', { l: [1, 2, 3] }, 2 + 1 + 3 * (3 + 2), 'condition and step 3 per element, result 1'],
    ['self.l.exists(x, x > 5)', { l: [1, 2] }, 2 + 1 + 2 * (4 + 2), 'exists: 4 per element'],
    ['self.l.map(x, x * 2).size() > 0', { l: [1, 2] }, 2 + 41 + 2 * (42 + 2) + 1 + 1, 'map: 42 per element, 41 once'],
    ["self.name == 'abc'", { name: 'a'.repeat(25) }, 2 + 1, 'actual sizes 25 and 3'],
    ['self.name == self.name', { name: 'a'.repeat(25) }, 4 + 3, 'ceil(0.1 × 25) = 3'],
    ['self.l.all(x, x == 1)', { l: [1, 1] }, 2 + 1 + 2 * (3 + 1 + 1), 'a scalar has actual size 1: == 1'],
  ];
  for (const [expression, self, want, derivation] of cases) {
    it(`${expression} on ${JSON.stringify(self)} → ${want} (${derivation})`, () => {
      const budget = new ObjectCostBudget(1000, 1000);
      const ast = compile(expression, env).ast;
      assert.equal(budget.charge(ast, { self }, expression), want);
      assert.equal(budget.charge(ast, { self: structuredClone(self) }, expression), want);
    });
  }
});

/**
 * Runtime costs kube-apiserver v1.32 expects (apiextensions-apiserver `TestCelCostStability`,
 * `pkg/apiserver/schema/cel/celcoststability_test.go`, "listMap access"), for rules where cel-go's
 * interpreter neither stops a loop early nor skips a branch our meter charges (it charges every
 * element and the dearer branch, an upper bound of cel-go's actual cost).
 */
describe("CEL runtime cost of comprehensions: kube-apiserver's figures (TestCelCostStability)", () => {
  const item: Schema = {
    type: 'object',
    required: ['k'],
    properties: { k: { type: 'string' }, v: { type: 'string' }, v2: { type: 'string' } },
  };
  const listMapSchema: Schema = {
    type: 'object',
    properties: {
      listMap: { type: 'array', 'x-orch-list-type': 'map', 'x-orch-list-map-keys': ['k'], items: item },
    },
  };
  const listMapEnv = set.extend(crdValidationDeclarations(listMapSchema)).newExpressions;
  const self = {
    listMap: [
      { k: 'a1', v: 'b1' },
      { k: 'a2', v: 'b2' },
      { k: 'a3', v: 'b3', v2: 'z' },
    ],
  };
  const cases: [expression: string, want: number][] = [
    ["self.listMap.all(m, m.k.startsWith('a'))", 21],
    ["!self.listMap.exists(m, m.v == 'x')", 25],
    ["!self.listMap.exists_one(m, m.k.startsWith('a'))", 20],
  ];
  for (const [expression, want] of cases) {
    it(`${expression} → ${want}`, () => {
      const budget = new ObjectCostBudget(1000, 1000);
      assert.equal(budget.charge(compile(expression, listMapEnv).ast, { self }, expression), want);
    });
  }

  it('accepts a quadratic rule over 725 integers at write time and stops it at run time (kube integration test "CR creation MUST fail if a x-kubernetes-validations rule exceeds the runtime cost limit")', () => {
    const list: Schema = { type: 'array', maxItems: 725, items: { type: 'integer' } };
    const listEnv = set.extend(crdValidationDeclarations(list)).newExpressions;
    const rule = 'self.all(x, self.all(y, x == y))';
    const ast = compile(rule, listEnv).ast;
    // Estimated: integers from the schema have size 0, so x == y costs nothing:
    // 1 + 1 + 725 × (3 + (1 + 1 + 725 × (3 + 2))) = 2,631,752, under the 10,000,000 limit.
    assert.equal(estimateCost(ast, schemaSizeBound({ self: list })).cost, 2_631_752);
    // At run time each integer has size 1 and x == y costs 1: 3,157,377, over the 1,000,000 per call.
    const values = Array.from({ length: 725 }, (_, i) => i);
    assert.throws(
      () => new ObjectCostBudget().charge(ast, { self: values }, rule),
      (e: unknown) => e instanceof Error && e.message === `call cost exceeds limit for rule: ${rule}`,
    );
    const budget = new ObjectCostBudget(10_000_000, 10_000_000);
    assert.equal(budget.charge(ast, { self: values }, rule), 3_157_377);
  });
});

describe('CEL string sizes in code points', () => {
  const cases: [string, number][] = [
    ['', 0],
    ['abc', 3],
    ['Rook takes 👑', 12],
    ['\u{1F451}\u{1F451}', 2],
    ['\ud800', 1],
    ['a\udc00', 2],
  ];
  for (const [s, want] of cases) it(`${JSON.stringify(s)} → ${want}`, () => assert.equal(codePoints(s), want));
});

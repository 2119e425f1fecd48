import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Schema } from '../../apis/schema/schema.js';
import { crdValidationDeclarations } from '../declarations.js';
import { CelEnvironmentSet } from '../environment-set.js';
import { versionedCelLibraries } from '../library/index.js';
import { compile } from '../program.js';
import { ObjectCostBudget } from './cost-budget.js';
import { estimateCost } from './cost-estimator.js';
import { schemaSizeBound } from './size-bounds.js';

/**
 * Estimated costs of validation rules with the figures kube-apiserver v1.32 expects for them:
 * `TestCostEstimation` in apiextensions-apiserver's `pkg/apiserver/schema/cel/compilation_test.go`
 * (the "set maxLength" figure, where the test sets maxItems / maxProperties / maxLength to the
 * case's limit, and the "calc maxLength" figure where noted). Each schema is the one the kube
 * case generates (`genArrayWithRule`, `genMapWithRule`, `genStringWithRule`, ...).
 */

/** A kube element type name as `parseRuleType` turns it into a schema. */
function element(type: string): Schema {
  if (type === 'int-or-string') return { 'x-orch-int-or-string': true };
  if (type === 'duration' || type === 'date' || type === 'date-time') return { type: 'string', format: type };
  return { type: type as Schema['type'] };
}
const arrayOf = (type: string, maxItems?: number): Schema => ({ type: 'array', items: element(type), maxItems });
const mapOf = (value: Schema, maxProperties?: number): Schema => ({
  type: 'object',
  additionalProperties: value,
  maxProperties,
});
const object = (): Schema => ({
  type: 'object',
  required: ['required'],
  properties: { required: { type: 'string' }, optional: { type: 'string' } },
});
const objectArray = (maxItems?: number): Schema => ({ type: 'array', items: object(), maxItems });
const string = (maxLength?: number, extra: Partial<Schema> = {}): Schema => ({ type: 'string', maxLength, ...extra });

const libraries = versionedCelLibraries();
function cost(expression: string, schema: Schema): number {
  const env = new CelEnvironmentSet({ libraries }).extend(crdValidationDeclarations(schema)).newExpressions;
  return estimateCost(compile(expression, env).ast, schemaSizeBound({ self: schema })).cost;
}

describe("CEL cost estimate: kube-apiserver's figures (TestCostEstimation)", () => {
  const cases: [kubeCase: string, expression: string, schema: Schema, want: number][] = [
    // Comprehensions: per element the loop condition and step (3 for all), once the result (1).
    ['number array with all', 'self.all(x, true)', arrayOf('number', 10), 32],
    ['number array with all (calc maxLength)', 'self.all(x, true)', arrayOf('number'), 4718591],
    ['string array with all', 'self.all(x, true)', arrayOf('string', 20), 62],
    ['boolean array with all', 'self.all(x, true)', arrayOf('boolean', 5), 17],
    [
      'array of number arrays with all',
      'self.all(x, true)',
      { type: 'array', maxItems: 100, items: { type: 'array', items: { type: 'number' } } },
      302,
    ],
    ['array of objects with all', 'self.all(x, true)', objectArray(50), 152],
    ['map of numbers with all', 'self.all(x, true)', mapOf(element('number'), 10), 32],
    ['map of strings with all', 'self.all(x, true)', mapOf(element('string'), 3), 11],
    ['map of booleans with all', 'self.all(x, true)', mapOf(element('boolean'), 100), 302],
    ['O(n^2) loop with numbers', 'self.all(x, self.all(y, true))', arrayOf('number', 10), 352],
    ['O(n^3) loop with numbers', 'self.all(x, self.all(y, self.all(z, true)))', arrayOf('number', 10), 3552],
    ['int-or-string array with all', 'self.all(x, true)', arrayOf('int-or-string', 10), 32],
    ['duration array with all', 'self.all(x, true)', arrayOf('duration', 5), 17],
    ['date array with all', 'self.all(x, true)', arrayOf('date', 15), 47],
    ['date-time array with all', 'self.all(x, true)', arrayOf('date-time', 25), 77],
    ['map of int-or-strings with all', 'self.all(x, true)', mapOf(element('int-or-string'), 15), 47],
    ['map of objects with all', 'self.all(x, true)', mapOf(object(), 20), 62],
    ['map of number maps with all', 'self.all(x, true)', mapOf(mapOf(element('number')), 10), 32],
    ['map of number arrays with all', 'self.all(x, true)', mapOf(arrayOf('number'), 25), 77],
    ['map of durations with all', 'self.all(x, true)', mapOf(element('duration'), 5), 17],
    ['map of dates with all', 'self.all(x, true)', mapOf(element('date'), 10), 32],
    ['map of date-times with all', 'self.all(x, true)', mapOf(element('date-time'), 25), 77],
    // Equality: ceil(0.1 × the smaller largest size); kube sizes numbers, booleans and objects
    // from the schema as 0, literals by their length (scalars 1), a string by maxLength × 4.
    ['index of array with numbers', 'self[1] == 0.0', arrayOf('number', 5000), 2],
    ['index of array with strings', 'self[1] == self[1]', arrayOf('string', 8), 314577],
    ['set array maxLength to zero', 'self[3] == 0.0', arrayOf('number', 0), 2],
    ['set map maxLength to zero', 'self["x"] == 0.0', mapOf(element('number'), 0), 2],
    ['set string maxLength to zero', 'self == "x"', string(0), 1],
    ['set string maxLength to zero (calc maxLength)', 'self == "x"', string(), 2],
    ['set bytes maxLength to zero', 'self == b"x"', string(0, { format: 'byte' }), 1],
    ['set maxLength greater than estimated maxLength', 'self.all(x, x == 0.0)', arrayOf('number', 6291456), 25165826],
    ['index of array with int-or-strings', 'self[0] == 5', arrayOf('int-or-string', 10), 3],
    ['index of array with booleans', 'self[0] == false', arrayOf('boolean', 25), 2],
    ['index of array of objects', 'self[0] == null', objectArray(422), 2],
    [
      'index of array of array of numnbers',
      'self[0][0] == -1.0',
      { type: 'array', maxItems: 51, items: { type: 'array', items: { type: 'number' } } },
      3,
    ],
    [
      'array of number maps with all',
      'self.all(x, x.y == 25.2)',
      { type: 'array', maxItems: 12, items: mapOf(element('number')) },
      74,
    ],
    [
      'nested types with root rule with all supporting maxLength',
      'self.all(x, x["y"].required == "z")',
      { type: 'array', maxItems: 10, items: mapOf({ ...object(), maxProperties: 10 }, 10) },
      72,
    ],
    [
      'index of array of number maps',
      'self[0].x > 2.0',
      { type: 'array', maxItems: 3000, items: mapOf(element('number')) },
      4,
    ],
    ['index of duration array', 'self[0].getHours() == 2', arrayOf('duration', 525), 4],
    ['index of date array', 'self[2].getDayOfMonth() == 13', arrayOf('date', 42), 4],
    ['index of date-time array', 'self[2].getMinutes() == 45', arrayOf('date-time', 99), 4],
    ['check cost of size call', 'oldSelf.size() == self.size()', mapOf(element('integer'), 10), 5],
    ['check cost of timestamp comparison', 'self["a"] == self["b"]', mapOf(element('date-time'), 7), 8],
    ['check cost of duration comparison', 'self["c"] == self["d"]', mapOf(element('duration'), 42), 8],
    ['concat string', 'size(self + "hello") > size("hello")', string(4), 7],
  ];
  for (const [kubeCase, expression, schema, want] of cases) {
    it(`${kubeCase}: ${expression} → ${want}`, () => assert.equal(cost(expression, schema), want));
  }
});

describe("CEL cost estimate of string functions: kube-apiserver's figures (TestCostEstimation)", () => {
  const enumString = (maxLength?: number): Schema => string(maxLength, { enum: ['A', 'B', 'C', 'LongValue'] });
  const cases: [kubeCase: string, expression: string, schema: Schema, want: number][] = [
    // contains: ceil(0.1 × 40) × ceil(0.1 × 4) plus self
    ['string with contains', "self.contains('test')", string(10), 5],
    ['string with startsWith', "self.startsWith('test')", string(15), 2],
    ['string with endsWith', "self.endsWith('test')", string(30), 2],
    // matches: ceil(0.1 × (200 + 1)) × ceil(0.25 × 1) plus self
    ['regex matches simple', 'self.matches("x")', string(50), 22],
    ['regex matches empty string', '"".matches("(((((((((())))))))))[0-9]")', string(10), 7],
    ['regex matches empty regex', 'self.matches("")', string(100), 1],
    // find: ceil(0.1 × 41) × ceil(0.25 × 6) plus self; `== ''` costs nothing
    ['extended library regex find', "self.find('[0-9]+') == ''", string(10), 11],
    ['extended library lowerAscii', "self.lowerAscii() == 'lower!'", string(10), 6],
    ['enums with maxLength equals to the longest possible value', "self.contains('A')", enumString(1000), 401],
    [
      'enums with maxLength equals to the longest possible value (calc maxLength)',
      "self.contains('A')",
      enumString(),
      2,
    ],
    ['map of strings with value length', 'self.all(x, x.contains(self[x]))', mapOf(string(10), 10), 72],
  ];
  for (const [kubeCase, expression, schema, want] of cases) {
    it(`${kubeCase}: ${expression} → ${want}`, () => assert.equal(cost(expression, schema), want));
  }
});

/**
 * Runtime costs from kube-apiserver v1.32's `TestCelCostStability` (apiextensions-apiserver
 * `pkg/apiserver/schema/cel/celcoststability_test.go`, "lists" and "maps"): membership in a list
 * costs the list's size, in a map 1.
 */
describe("CEL runtime cost of membership: kube-apiserver's figures (TestCelCostStability)", () => {
  const schema: Schema = {
    type: 'object',
    properties: {
      val1: { type: 'array', items: { type: 'integer' } },
      val2: { type: 'object', additionalProperties: { type: 'string' } },
    },
  };
  const self = { val1: [1, 2, 3], val2: { k1: 'a', k2: 'b' } };
  const cases: [expression: string, want: number][] = [
    ['1 in self.val1', 5],
    ['!(0 in self.val1)', 6],
    ["'k1' in self.val2", 3],
    ["!('k3' in self.val2)", 4],
  ];
  for (const [expression, want] of cases) {
    it(`${expression} → ${want}`, () => {
      const env = new CelEnvironmentSet({ libraries }).extend(crdValidationDeclarations(schema)).newExpressions;
      assert.equal(new ObjectCostBudget(100, 100).charge(compile(expression, env).ast, { self }, expression), want);
    });
  }
});

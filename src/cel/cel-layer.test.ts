import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Schema } from '../apis/schema/schema.js';
import { checkEstimatedCost, ObjectCostBudget } from './cost/cost-budget.js';
import { schemaSizeBound } from './cost/size-bounds.js';
import { crdValidationDeclarations } from './declarations.js';
import { CelEnvironmentSet } from './environment-set.js';
import { CelCompileError } from './errors.js';
import { versionedCelLibraries } from './library/index.js';
import { compile, evaluate } from './program.js';
import { celVersion } from './version.js';

const schema: Schema = {
  type: 'object',
  properties: {
    spec: {
      type: 'object',
      properties: {
        memory: { type: 'string', maxLength: 16 },
        hosts: { type: 'array', maxItems: 10, items: { type: 'string', maxLength: 64 } },
        replicas: { type: 'integer' },
      },
    },
  },
};

describe('the CEL layer: engine, kube libraries and cost together', () => {
  const set = new CelEnvironmentSet({ libraries: versionedCelLibraries() });
  const { newExpressions } = set.extend(crdValidationDeclarations(schema));
  const self = { spec: { memory: '1Gi', hosts: ['a.example', 'b.example'], replicas: 3 } };

  const rules: [string, unknown][] = [
    ["quantity(self.spec.memory).isLessThan(quantity('2Gi'))", true],
    ["self.spec.hosts.all(h, h.endsWith('.example'))", true],
    ["self.spec.hosts.isSorted() && self.spec.hosts.indexOf('b.example') == 1", true],
    ["isURL('https://' + self.spec.hosts[0] + '/x')", true],
    ["url('https://' + self.spec.hosts[0] + ':8443').getPort()", '8443'],
    ["isCIDR('10.0.0.0/8') && cidr('10.0.0.0/8').containsIP(ip('10.1.2.3'))", true],
    ["self.spec.hosts[0].find('[a-z]+')", 'a'],
    ['self.spec.replicas * 2', 6],
    ["sets.contains(self.spec.hosts, ['a.example'])", true],
    ["format.dns1123Label().validate('Bad_Name').hasValue()", true],
  ];
  for (const [rule, want] of rules) {
    it(`${rule} → ${JSON.stringify(want)}`, () => {
      const program = compile(rule, newExpressions);
      assert.deepEqual(evaluate(program, { self }), want);
      // Every rule here is cheap with the schema's limits, and charged on the input.
      assert.equal(checkEstimatedCost(program.ast, schemaSizeBound({ self: schema })), undefined);
      assert.ok(new ObjectCostBudget().charge(program.ast, { self }, rule) >= 0);
    });
  }

  it('keeps libraries newer than the compatibility version out of new expressions, not stored ones', () => {
    const old = new CelEnvironmentSet({ libraries: versionedCelLibraries(), compatibilityVersion: celVersion(1, 27) });
    const pair = old.extend(crdValidationDeclarations(schema));
    const rule = "quantity(self.spec.memory).isLessThan(quantity('2Gi'))";
    assert.throws(() => compile(rule, pair.newExpressions), CelCompileError);
    assert.equal(evaluate(compile(rule, pair.storedExpressions), { self }), true);
  });
});

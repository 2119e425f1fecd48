import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Environment } from '@marcbachmann/cel-js';
import type { Schema } from '../apis/schema/schema.js';
import { crdValidationDeclarations } from './declarations.js';
import { CelEnvironmentSet } from './environment-set.js';
import { compile, evaluate } from './program.js';

const ports: Schema = {
  type: 'array',
  'x-orch-list-type': 'map',
  'x-orch-list-map-keys': ['name', 'protocol'],
  items: {
    type: 'object',
    properties: { name: { type: 'string' }, protocol: { type: 'string' }, port: { type: 'integer' } },
  },
};
const schema: Schema = {
  type: 'object',
  properties: {
    tags: { type: 'array', 'x-orch-list-type': 'set', items: { type: 'string' } },
    ids: { type: 'array', 'x-orch-list-type': 'set', items: { type: 'integer' } },
    ports,
    atomic: { type: 'array', items: { type: 'string' } },
  },
};
const env = new CelEnvironmentSet().extend(crdValidationDeclarations(schema)).newExpressions;
const run = (expression: string, self: unknown, oldSelf: unknown = self) =>
  evaluate(compile(expression, env), { self, oldSelf });

const http = { name: 'http', protocol: 'TCP', port: 80 };
const https = { name: 'https', protocol: 'TCP', port: 443 };
const dns = { name: 'dns', protocol: 'UDP', port: 53 };

describe('set lists', () => {
  it('compare ignoring order, by the left operand', () => {
    const cases: [expression: string, self: unknown, oldSelf: unknown, want: boolean][] = [
      ['self.tags == oldSelf.tags', { tags: ['a', 'b'] }, { tags: ['b', 'a'] }, true],
      ['self.tags != oldSelf.tags', { tags: ['a', 'b'] }, { tags: ['b', 'a'] }, false],
      ['self.tags == oldSelf.tags', { tags: ['a', 'b'] }, { tags: ['a', 'c'] }, false],
      ['self.tags == oldSelf.tags', { tags: ['a'] }, { tags: ['a', 'a'] }, false],
      ['self.ids == oldSelf.ids', { ids: [1, 2, 3] }, { ids: [3, 1, 2] }, true],
      ["self.tags == ['b', 'a']", { tags: ['a', 'b'] }, {}, true],
      ['self.tags == []', { tags: [] }, {}, true],
      ['self.tags == []', { tags: ['a'] }, {}, false],
      ['self.tags == dyn(oldSelf.tags)', { tags: ['a', 'b'] }, { tags: ['b', 'a'] }, true],
      // nested in another comparison
      ['[self.tags] == [oldSelf.tags]', { tags: ['a', 'b'] }, { tags: ['b', 'a'] }, true],
      // a literal on the left compares in order, as in kube
      ["['b', 'a'] == self.tags", { tags: ['a', 'b'] }, {}, false],
      // an atomic list keeps its order
      ['self.atomic == oldSelf.atomic', { atomic: ['a', 'b'] }, { atomic: ['b', 'a'] }, false],
    ];
    for (const [expression, self, oldSelf, want] of cases) {
      assert.equal(run(expression, self, oldSelf), want, `${expression} with ${JSON.stringify([self, oldSelf])}`);
    }
  });

  it('concatenate as a union keeping the left order, then the new elements of the right', () => {
    assert.deepEqual(run("self.tags + ['c', 'a', 'd', 'c']", { tags: ['b', 'a'] }), ['b', 'a', 'c', 'd']);
    assert.deepEqual(run('self.ids + oldSelf.ids', { ids: [3, 1] }, { ids: [1, 2] }), [3, 1, 2]);
    assert.deepEqual(run('self.tags + []', { tags: ['a'] }), ['a']);
    // the result is a set again
    assert.equal(run("self.tags + ['c'] == ['c', 'b', 'a']", { tags: ['a', 'b'] }), true);
    // an atomic list concatenates
    assert.deepEqual(run("self.atomic + ['a']", { atomic: ['a'] }), ['a', 'a']);
    assert.deepEqual(run("['a'] + self.tags", { tags: ['a'] }), ['a', 'a']);
  });

  it('keep membership and indexing', () => {
    assert.equal(run("'a' in self.tags && self.tags[1] == 'b' && self.tags.size() == 2", { tags: ['a', 'b'] }), true);
  });
});

describe('map lists', () => {
  it('compare the element under each key, ignoring order', () => {
    const cases: [expression: string, self: unknown, oldSelf: unknown, want: boolean][] = [
      ['self.ports == oldSelf.ports', { ports: [http, https] }, { ports: [https, http] }, true],
      ['self.ports == oldSelf.ports', { ports: [http, https] }, { ports: [http, { ...https, port: 8443 }] }, false],
      ['self.ports == oldSelf.ports', { ports: [http] }, { ports: [http, https] }, false],
      // both key fields count
      ['self.ports == oldSelf.ports', { ports: [http] }, { ports: [{ ...http, protocol: 'UDP' }] }, false],
      ['self.ports != oldSelf.ports', { ports: [http, https] }, { ports: [https, http] }, false],
      ['self == oldSelf', { ports: [http, https], tags: ['x'] }, { tags: ['x'], ports: [https, http] }, true],
      ['self.ports == []', { ports: [] }, {}, true],
      ['self.ports.exists(p, p == oldSelf.ports[0])', { ports: [http, https] }, { ports: [https] }, true],
      ['oldSelf.ports[0] in self.ports', { ports: [http, https] }, { ports: [https] }, true],
    ];
    for (const [expression, self, oldSelf, want] of cases) {
      assert.equal(run(expression, self, oldSelf), want, `${expression} with ${JSON.stringify([self, oldSelf])}`);
    }
  });

  it('concatenate as a merge: left positions kept, right elements win on shared keys, new keys appended', () => {
    const newHttp = { ...http, port: 8080 };
    assert.deepEqual(run('self.ports + oldSelf.ports', { ports: [http, https] }, { ports: [dns, newHttp] }), [
      newHttp,
      https,
      dns,
    ]);
    assert.deepEqual(run('self.ports + []', { ports: [http] }), [http]);
    // the result merges again
    assert.equal(
      run('(self.ports + oldSelf.ports) == (oldSelf.ports + self.ports)', { ports: [http] }, { ports: [dns] }),
      true,
    );
  });
});

describe('list operators', () => {
  it('leave the engine’s other environments alone', () => {
    // Built after the environment set above: the engine's own list concatenation and equality are intact.
    const plain = new Environment();
    assert.deepEqual(plain.evaluate("['a', 'b'] + ['a']"), ['a', 'b', 'a']);
    assert.equal(plain.evaluate("['a', 'b'] == ['b', 'a']"), false);
  });
});

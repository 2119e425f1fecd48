import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { executeJsonPath, JsonPath, JsonPathEvaluationError, JsonPathSyntaxError, textOf } from './jsonpath.js';

const data = {
  kind: 'List',
  items: [
    { metadata: { name: 'a', labels: { app: 'x' } }, spec: { replicas: 3, ratio: 0.5 }, status: { ready: true } },
    { metadata: { name: 'b' }, spec: { replicas: 1 }, status: { ready: false } },
  ],
  'dotted.key': 'v',
};

describe('kube JSONPath templates', () => {
  const cases: { template: string; want: string }[] = [
    { template: '{.kind}', want: 'List' },
    { template: '{.items[0].metadata.name}', want: 'a' },
    { template: '{.items[-1].metadata.name}', want: 'b' },
    { template: '{.items[*].metadata.name}', want: 'a b' },
    { template: '{.items[0:1].spec.replicas}', want: '3' },
    { template: '{.items[0].spec.ratio}', want: '0.5' },
    { template: '{.items[0].status.ready}', want: 'true' },
    { template: "{.items[?(@.metadata.name=='b')].spec.replicas}", want: '1' },
    { template: '{.items[?(@.spec.replicas>2)].metadata.name}', want: 'a' },
    { template: '{.items[?(@.metadata.labels)].metadata.name}', want: 'a' },
    { template: '{..name}', want: 'a b' },
    { template: "{['dotted.key']}", want: 'v' },
    { template: '{.items[0].metadata.labels}', want: '{"app":"x"}' },
    { template: '{.items[0,1].metadata.name}', want: 'a b' },
    { template: 'name={.items[0].metadata.name}!', want: 'name=a!' },
  ];
  for (const c of cases) {
    it(`${c.template} → ${c.want}`, () => {
      assert.equal(executeJsonPath(new JsonPath(c.template), data), c.want);
    });
  }

  it('reports missing keys unless allowed', () => {
    assert.throws(() => new JsonPath('{.nothing}').findResults(data), JsonPathEvaluationError);
    assert.deepEqual(new JsonPath('{.nothing}', true).findResults(data), [[]]);
    assert.equal(new JsonPath('{.items[5]}', true).first(data), undefined);
  });

  it('rejects malformed templates', () => {
    for (const bad of ['{.a', '{.a[}', '{.a[x]}', '{....a}', '{%}']) {
      assert.throws(() => new JsonPath(bad), JsonPathSyntaxError, bad);
    }
  });

  it('prints values as Go does', () => {
    assert.equal(textOf(1e-7), '1e-07');
    assert.equal(textOf(12), '12');
    assert.equal(textOf(null), 'null');
    assert.equal(textOf({ b: 1, a: [true] }), '{"a":[true],"b":1}');
  });
});

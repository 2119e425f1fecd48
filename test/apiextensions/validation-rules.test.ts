import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type InProcessServer, startInProcess } from '../pipeline/server-fixture.js';
import { crdManifest, crdPath, createEstablished } from './crd-fixtures.js';

// biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary JSON
type Json = any;

const BASE = '/apis/rules.example.com/v1/namespaces/default/gauges';
const MERGE = { 'content-type': 'application/merge-patch+json' };

/** A kind whose spec carries validation rules: a plain one, a messageExpression, a transition rule. */
function manifest(rules: object[]): Json {
  return crdManifest({
    group: 'rules.example.com',
    plural: 'gauges',
    kind: 'Gauge',
    versions: [
      {
        name: 'v1',
        served: true,
        storage: true,
        schema: {
          openAPIV3Schema: {
            type: 'object',
            properties: {
              spec: {
                type: 'object',
                properties: {
                  min: { type: 'integer' },
                  max: { type: 'integer' },
                  mode: { type: 'string', maxLength: 10 },
                },
                'x-kubernetes-validations': rules,
              },
            },
          },
        },
      },
    ],
  });
}

describe('validation rules of custom resources through the rules seam', () => {
  let s: InProcessServer;
  before(async () => {
    s = await startInProcess({ runControllers: false });
    await createEstablished(
      s.api.admin,
      manifest([
        { rule: 'self.min <= self.max', message: 'min must not exceed max' },
        { rule: "self.mode != 'off'", messageExpression: "'mode ' + self.mode + ' is not allowed'" },
        { rule: 'self.mode == oldSelf.mode', message: 'mode is immutable', reason: 'FieldValueForbidden' },
      ]),
    );
  });
  after(() => s.stop());

  const gauge = (name: string, spec: object) => ({
    apiVersion: 'rules.example.com/v1',
    kind: 'Gauge',
    metadata: { name },
    spec,
  });

  it('refuses objects that break a rule, with the rule’s message or message expression', async () => {
    const r = await s.api.admin('POST', BASE, { body: gauge('g', { min: 5, max: 1, mode: 'off' }) });
    assert.equal(r.status, 422, r.text);
    assert.deepEqual(
      r.json().details.causes.map((c: Json) => `${c.field}: ${c.message}`),
      [
        'spec: Invalid value: "object": min must not exceed max',
        'spec: Invalid value: "object": mode off is not allowed',
      ],
    );
    assert.equal((await s.api.admin('POST', BASE, { body: gauge('g', { min: 1, max: 5, mode: 'on' }) })).status, 201);
  });

  it('checks transition rules on update only', async () => {
    const r = await s.api.admin('PATCH', `${BASE}/g`, { body: { spec: { mode: 'auto' } }, headers: MERGE });
    assert.equal(r.status, 422, r.text);
    const cause = r.json().details.causes[0];
    assert.equal(cause.field, 'spec');
    assert.equal(cause.reason, 'FieldValueForbidden');
    assert.equal(cause.message, 'Forbidden: mode is immutable');
    assert.equal((await s.api.admin('PATCH', `${BASE}/g`, { body: { spec: { max: 9 } }, headers: MERGE })).status, 200);
  });

  it('refuses a definition whose rule does not compile, naming the rule', async () => {
    const bad = manifest([{ rule: 'self.nothing > 1' }]);
    bad.metadata.name = 'gauges.badrules.example.com';
    bad.spec.group = 'badrules.example.com';
    const r = await s.api.admin('POST', crdPath(), { body: bad });
    assert.equal(r.status, 422, r.text);
    const cause = r.json().details.causes[0];
    assert.equal(cause.field, 'spec.validation.openAPIV3Schema.properties[spec].x-kubernetes-validations[0].rule');
    assert.match(cause.message, /undefined field 'nothing'/);
  });
});

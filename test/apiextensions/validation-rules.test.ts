import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type InProcessServer, startInProcess } from '../pipeline/server-fixture.js';
import { crdManifest, crdPath, createEstablished, eventually } from './crd-fixtures.js';

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

  it('lets an unchanged value that breaks a newer rule through, with the failure as a warning', async () => {
    const dial = (rules: object[]): Json =>
      crdManifest({
        group: 'ratchet.example.com',
        plural: 'dials',
        kind: 'Dial',
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
                      limit: { type: 'integer', 'x-kubernetes-validations': rules },
                      note: { type: 'string' },
                    },
                  },
                },
              },
            },
          },
        ],
      });
    const dials = '/apis/ratchet.example.com/v1/namespaces/default/dials';
    const body = (name: string, limit: number) => ({
      apiVersion: 'ratchet.example.com/v1',
      kind: 'Dial',
      metadata: { name },
      spec: { limit, note: 'a' },
    });
    await createEstablished(s.api.admin, dial([]));
    assert.equal((await s.api.admin('POST', dials, { body: body('d', 5) })).status, 201);
    // The definition gains a rule the stored object breaks.
    const stricter = dial([{ rule: 'self < 3', message: 'limit is too high' }]);
    const current = (await s.api.admin('GET', crdPath(undefined, stricter.metadata.name))).json();
    stricter.metadata.resourceVersion = current.metadata.resourceVersion;
    const put = await s.api.admin('PUT', crdPath(undefined, stricter.metadata.name), { body: stricter });
    assert.equal(put.status, 200, put.text);
    await eventually('the rule applies', async () =>
      (await s.api.admin('POST', dials, { body: body('probe', 5) })).status === 422 ? true : undefined,
    );
    const warning = '299 - "spec.limit: Invalid value: \\"integer\\": limit is too high"';
    const other = await s.api.admin('PATCH', `${dials}/d`, { body: { spec: { note: 'b' } }, headers: MERGE });
    assert.equal(other.status, 200, other.text);
    assert.equal(other.headers.warning, warning);
    const dryRun = await s.api.admin('PATCH', `${dials}/d?dryRun=All`, {
      body: { spec: { note: 'c' } },
      headers: MERGE,
    });
    assert.equal(dryRun.status, 200, dryRun.text);
    assert.equal(dryRun.headers.warning, warning);
    const changed = await s.api.admin('PATCH', `${dials}/d`, { body: { spec: { limit: 4 } }, headers: MERGE });
    assert.equal(changed.status, 422, changed.text);
    assert.equal(changed.json().details.causes[0].message, 'Invalid value: "integer": limit is too high');
    assert.equal(changed.headers.warning, undefined);
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

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { formatFieldError } from '../meta/field-error.js';
import type { ApiObject } from '../object.js';
import { serviceAccountResource } from './service-account.js';

const def = serviceAccountResource();

function sa(fields: Record<string, unknown>, name = 'builder'): ApiObject {
  return { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name, namespace: 'ci' }, ...fields };
}

describe('ServiceAccount', () => {
  it('keeps only the name of secret references', () => {
    const obj = sa({
      secrets: [{ name: 'tok', namespace: 'other', uid: 'x', kind: 'Secret' }, { uid: 'y' }],
      imagePullSecrets: [{ name: 'pull' }],
      automountServiceAccountToken: false,
    });
    def.strategy.prepareForCreate(obj);
    assert.deepEqual(obj.secrets, [{ name: 'tok' }, {}]);
    assert.deepEqual(def.strategy.validateCreate(obj), []);
  });

  it('reports ill-typed fields and bad names', () => {
    const obj = sa({ secrets: [{ name: 3 }], automountServiceAccountToken: 'no' }, 'Bad Name');
    def.strategy.prepareForCreate(obj);
    const errs = def.strategy.validateCreate(obj).map(formatFieldError);
    assert.equal(errs.length, 3);
    assert.match(errs[0], /^metadata\.name: Invalid value: "Bad Name": a lowercase RFC 1123 subdomain/);
    assert.equal(
      errs[1],
      'secrets[0].name: Invalid value: "integer": secrets[0].name in body must be of type string: "integer"',
    );
    assert.equal(
      errs[2],
      'automountServiceAccountToken: Invalid value: "string": automountServiceAccountToken in body must be of type boolean: "string"',
    );
  });

  it('accepts duplicate secret names, as kube validates service accounts in Go (no list-map keys)', () => {
    const obj = sa({ secrets: [{ name: 'a' }, { name: 'a' }] });
    def.strategy.prepareForCreate(obj);
    assert.deepEqual(def.strategy.validateCreate(obj).map(formatFieldError), []);
  });

  it('leaves a pull secret reference without a name empty, as kube writes it', () => {
    // LocalObjectReference.name publishes default "", but kube never writes it (omitempty).
    const obj = sa({ imagePullSecrets: [{}, { name: 'pull' }] });
    def.strategy.prepareForCreate(obj);
    assert.deepEqual(obj.imagePullSecrets, [{}, { name: 'pull' }]);
    assert.deepEqual(def.strategy.validateCreate(obj), []);
  });

  it('is served as serviceaccounts (sa)', () => {
    assert.deepEqual(
      [def.resource, def.singular, def.shortNames, def.namespaced],
      ['serviceaccounts', 'serviceaccount', ['sa'], true],
    );
  });
});

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ORCH_DOMAIN } from '../../apis/api-domain.js';
import { builtinResources } from '../../apis/builtin.js';
import type { ApiRequest } from '../handler.js';
import { decodeObjectBody } from './decode-body.js';

const pods = builtinResources().find((d) => d.group === '' && d.kind === 'Pod')!;

function request(body: string, contentType = 'application/json'): ApiRequest {
  return {
    headers: { 'content-type': contentType },
    query: new URLSearchParams(),
    domain: ORCH_DOMAIN,
    readBody: async () => Buffer.from(body),
  } as unknown as ApiRequest;
}

const decode = (body: string, contentType?: string) =>
  decodeObjectBody(request(body, contentType), pods, { directive: 'Warn', cborEnabled: false });

describe('decodeObjectBody: whether a create may keep the decoded object', () => {
  it('may keep a JSON body: a copy of it would be equal in every respect', async () => {
    const body = await decode('{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},"spec":{"x":1}}');
    assert.equal(body.ownable, true);
    assert.deepEqual(body.warnings, ['unknown field "spec.x"']);
  });

  it('may keep a JSON body with a __proto__ key or escapes: JSON.parse made every key an own member', async () => {
    for (const key of ['__proto__', '\\u005f_proto__', 'p\\u0031']) {
      const body = await decode(`{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p","labels":{"${key}":"a"}}}`);
      assert.equal(body.ownable, true, key);
      assert.equal(Object.getPrototypeOf((body.obj.metadata as { labels: object }).labels), Object.prototype);
    }
  });

  it('copies bodies of other media types (YAML aliases share one object between places)', async () => {
    assert.equal(
      (await decode('apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\n', 'application/yaml')).ownable,
      false,
    );
  });
});

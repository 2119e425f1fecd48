import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { apiRequest } from '../testing/api-request.js';
import { documentResponse } from './document-response.js';

const request = (accept: string | undefined) => apiRequest({ url: '/api', headers: accept ? { accept } : {} });

const doc = {
  kind: 'APIVersions',
  versions: ['v1'],
  serverAddressByClientCIDRs: [{ clientCIDR: '0.0.0.0/0', serverAddress: '127.0.0.1:6443' }],
};

describe('documentResponse', () => {
  it('writes YAML as kube-apiserver does: keys sorted, sequences flush with their key', () => {
    const r = documentResponse(request('application/yaml'), 200, doc);
    assert.equal(r.headers['content-type'], 'application/yaml');
    assert.equal(
      r.body,
      'kind: APIVersions\nserverAddressByClientCIDRs:\n- clientCIDR: 0.0.0.0/0\n  serverAddress: 127.0.0.1:6443\nversions:\n- v1\n',
    );
  });

  it('writes JSON by default', () => {
    const r = documentResponse(request(undefined), 200, doc);
    assert.equal(r.headers['content-type'], 'application/json');
    assert.deepEqual(JSON.parse(String(r.body)), doc);
  });

  const media: [accept: string, mediaType: string][] = [
    ['application/yaml', 'application/yaml'],
    ['application/json, application/yaml', 'application/json'],
    ['application/yaml, application/json', 'application/yaml'],
    ['application/json;q=0.5, application/yaml', 'application/yaml'],
    ['*/*, application/yaml', 'application/yaml'],
    ['application/*', 'application/json'],
    ['text/html', 'application/json'],
    ['application/vnd.orch.protobuf, application/yaml;q=0.9', 'application/yaml'],
  ];
  for (const [accept, mediaType] of media) {
    it(`answers ${JSON.stringify(accept)} in ${mediaType}`, () => {
      assert.equal(documentResponse(request(accept), 200, doc).headers['content-type'], mediaType);
    });
  }
});

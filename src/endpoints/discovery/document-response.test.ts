import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ApiRequest } from '../handler.js';
import { documentResponse } from './document-response.js';

function request(accept: string | undefined): ApiRequest {
  return {
    method: 'GET',
    path: '/api',
    query: new URLSearchParams(),
    headers: accept === undefined ? {} : { accept },
    signal: new AbortController().signal,
    readBody: async () => Buffer.alloc(0),
    head: { method: 'GET', url: '/api', headers: {}, headerValues: () => [], peerCertificate: undefined },
  };
}

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
});

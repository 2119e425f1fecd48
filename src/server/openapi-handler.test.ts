import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { builtinResources } from '../apis/builtin.js';
import { apiRequest } from '../endpoints/testing/api-request.js';
import { openApiHandler } from './openapi-handler.js';

describe('openApiHandler Accept', () => {
  const handler = openApiHandler({ all: () => builtinResources().map((def) => ({ def })), generation: 0 });
  const cases: [accept: string | undefined, status: number][] = [
    [undefined, 200],
    ['application/json', 200],
    ['application/*', 200],
    ['*/*', 200],
    ['text/html, application/json;q=0.1', 200],
    ['application/json ; charset=utf-8', 200],
    ['text/html', 406],
    ['application/yaml', 406],
    ['application/com.github.proto-openapi.spec.v3@v1.0+protobuf', 406],
  ];
  for (const [accept, status] of cases) {
    it(`/openapi/v3 with Accept ${JSON.stringify(accept)} → ${status}`, () => {
      const res = handler(apiRequest({ url: '/openapi/v3', headers: accept === undefined ? {} : { accept } }));
      assert.equal(res?.status, status);
    });
  }
});

describe('openApiHandler /openapi/v2 revalidation', () => {
  const handler = openApiHandler({ all: () => builtinResources().map((def) => ({ def })), generation: 0 });
  it('answers 304 to the current ETag in either form, and 200 to another', () => {
    const first = handler(apiRequest({ url: '/openapi/v2' }));
    assert.ok(first && first.kind === 'body' && first.status === 200);
    const etag = String(first.headers.etag);
    for (const accept of ['application/json', 'application/com.github.proto-openapi.spec.v2.v1.0+protobuf']) {
      const again = handler(apiRequest({ url: '/openapi/v2', headers: { accept, 'if-none-match': etag } }));
      assert.equal(again?.status, 304);
      assert.equal(again?.headers.etag, etag);
    }
    const stale = handler(apiRequest({ url: '/openapi/v2', headers: { 'if-none-match': '"0"' } }));
    assert.equal(stale?.status, 200);
  });
});

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseRequestInfo } from './request-info.js';
import { RequestInfoCache } from './request-info-cache.js';

const q = (s = '') => new URLSearchParams(s);

describe('RequestInfoCache', () => {
  const cases: { name: string; method: string; url: string; cached: boolean }[] = [
    { name: 'get of one object', method: 'GET', url: '/api/v1/namespaces/ns/pods/p?resourceVersion=0', cached: true },
    { name: 'update of one object', method: 'PUT', url: '/apis/apps/v1/namespaces/ns/deployments/d', cached: true },
    { name: 'sub-resource', method: 'GET', url: '/api/v1/namespaces/ns/pods/p/status', cached: true },
    { name: 'non-resource path', method: 'GET', url: '/healthz', cached: true },
    { name: 'list', method: 'GET', url: '/api/v1/pods?labelSelector=a%3Db', cached: false },
    { name: 'watch', method: 'GET', url: '/api/v1/pods?watch=1', cached: false },
    {
      name: 'list pinned to a name',
      method: 'GET',
      url: '/api/v1/pods?fieldSelector=metadata.name%3Dp',
      cached: false,
    },
    { name: 'deletecollection', method: 'DELETE', url: '/api/v1/namespaces/ns/pods', cached: false },
  ];
  for (const c of cases) {
    it(`${c.name}: the parser's answer, ${c.cached ? 'remembered' : 'parsed every time'}`, () => {
      const cache = new RequestInfoCache();
      const u = new URL(c.url, 'https://orch.test');
      const first = cache.resolve(c.method, u.pathname, u.searchParams);
      assert.deepEqual(first, parseRequestInfo(c.method, u.pathname, u.searchParams));
      const second = cache.resolve(c.method, u.pathname, u.searchParams);
      assert.deepEqual(second, first);
      assert.equal(second === first, c.cached);
      if (c.cached) assert.equal(Object.isFrozen(first) && Object.isFrozen(first.parts), true);
    });
  }

  it('keeps methods apart (GET is get, DELETE is delete)', () => {
    const cache = new RequestInfoCache();
    const path = '/api/v1/namespaces/ns/pods/p';
    assert.equal(cache.resolve('GET', path, q()).verb, 'get');
    assert.equal(cache.resolve('DELETE', path, q()).verb, 'delete');
    assert.equal(cache.resolve('GET', path, q()).verb, 'get');
  });

  it('a query never changes a cached answer it could not have changed', () => {
    const cache = new RequestInfoCache();
    const path = '/api/v1/namespaces/ns/pods/p';
    const plain = cache.resolve('GET', path, q());
    assert.equal(cache.resolve('GET', path, q('watch=1&fieldSelector=metadata.name%3Dx')), plain);
    assert.deepEqual(plain, parseRequestInfo('GET', path, q('watch=1&fieldSelector=metadata.name%3Dx')));
  });

  it('starts over past maxEntries', () => {
    const cache = new RequestInfoCache(2);
    const a = cache.resolve('GET', '/api/v1/namespaces/ns/pods/a', q());
    cache.resolve('GET', '/api/v1/namespaces/ns/pods/b', q());
    assert.equal(cache.resolve('GET', '/api/v1/namespaces/ns/pods/a', q()), a);
    cache.resolve('GET', '/api/v1/namespaces/ns/pods/c', q());
    const again = cache.resolve('GET', '/api/v1/namespaces/ns/pods/a', q());
    assert.notEqual(again, a);
    assert.deepEqual(again, a);
  });

  it('throws what the parser throws, and remembers nothing of it', () => {
    const cache = new RequestInfoCache();
    assert.throws(() => cache.resolve('GET', '/api/v1/watch', q()), { name: 'RequestInfoError' });
    assert.throws(() => cache.resolve('GET', '/api/v1/watch', q()), { name: 'RequestInfoError' });
  });
});

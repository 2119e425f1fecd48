import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseRequestInfo, type RequestInfo, RequestInfoError } from './request-info.js';

type Expected = Partial<RequestInfo>;

function parse(method: string, url: string): RequestInfo {
  const [path, q = ''] = url.split('?', 2);
  return parseRequestInfo(method, path, new URLSearchParams(q));
}

function check(method: string, url: string, expected: Expected): void {
  const info = parse(method, url);
  const picked: Record<string, unknown> = {};
  for (const key of Object.keys(expected)) picked[key] = info[key as keyof RequestInfo];
  assert.deepEqual(picked, expected, `${method} ${url}`);
}

const G = 'rbac.authorization.orch.io';

describe('parseRequestInfo: path shapes', () => {
  const rows: [string, string, Expected][] = [
    // cluster-scoped collection
    [
      'GET',
      '/api/v1/nodes',
      {
        verb: 'list',
        apiPrefix: 'api',
        apiGroup: '',
        apiVersion: 'v1',
        namespace: '',
        resource: 'nodes',
        name: '',
        parts: ['nodes'],
      },
    ],
    [
      'GET',
      `/apis/${G}/v1/clusterroles`,
      {
        verb: 'list',
        apiPrefix: 'apis',
        apiGroup: G,
        apiVersion: 'v1',
        namespace: '',
        resource: 'clusterroles',
        parts: ['clusterroles'],
      },
    ],
    // cluster-scoped resource
    ['GET', '/api/v1/nodes/n1', { verb: 'get', resource: 'nodes', name: 'n1', namespace: '', parts: ['nodes', 'n1'] }],
    ['GET', `/apis/${G}/v1/clusterroles/admin`, { verb: 'get', apiGroup: G, resource: 'clusterroles', name: 'admin' }],
    // namespaced collection across all namespaces
    ['GET', '/api/v1/pods', { verb: 'list', namespace: '', resource: 'pods', name: '' }],
    ['GET', '/apis/apps/v1/deployments', { verb: 'list', apiGroup: 'apps', namespace: '', resource: 'deployments' }],
    // namespaced collection in one namespace
    [
      'GET',
      '/api/v1/namespaces/ns1/pods',
      { verb: 'list', namespace: 'ns1', resource: 'pods', name: '', parts: ['pods'] },
    ],
    [
      'GET',
      '/apis/coordination.orch.io/v1/namespaces/ns1/leases',
      { verb: 'list', apiGroup: 'coordination.orch.io', apiVersion: 'v1', namespace: 'ns1', resource: 'leases' },
    ],
    // namespaced resource
    [
      'GET',
      '/api/v1/namespaces/ns1/pods/p1',
      { verb: 'get', namespace: 'ns1', resource: 'pods', name: 'p1', subresource: '', parts: ['pods', 'p1'] },
    ],
    [
      'GET',
      '/apis/apps/v1/namespaces/ns1/deployments/d1',
      { verb: 'get', apiGroup: 'apps', namespace: 'ns1', resource: 'deployments', name: 'd1' },
    ],
    // sub-resources
    [
      'GET',
      '/api/v1/namespaces/ns1/pods/p1/status',
      { verb: 'get', resource: 'pods', name: 'p1', subresource: 'status', parts: ['pods', 'p1', 'status'] },
    ],
    [
      'PUT',
      '/apis/apps/v1/namespaces/ns1/deployments/d1/scale',
      { verb: 'update', apiGroup: 'apps', resource: 'deployments', name: 'd1', subresource: 'scale' },
    ],
    [
      'GET',
      '/api/v1/nodes/n1/status',
      { verb: 'get', namespace: '', resource: 'nodes', name: 'n1', subresource: 'status' },
    ],
    [
      'GET',
      '/api/v1/namespaces/ns1/pods/p1/proxy/a/b',
      { verb: 'get', resource: 'pods', name: 'p1', subresource: 'proxy', parts: ['pods', 'p1', 'proxy', 'a', 'b'] },
    ],
    // namespaces are a cluster-scoped resource with their own sub-resources
    [
      'GET',
      '/api/v1/namespaces',
      { verb: 'list', namespace: '', resource: 'namespaces', name: '', parts: ['namespaces'] },
    ],
    [
      'GET',
      '/api/v1/namespaces/ns1',
      { verb: 'get', namespace: 'ns1', resource: 'namespaces', name: 'ns1', parts: ['namespaces', 'ns1'] },
    ],
    [
      'PUT',
      '/api/v1/namespaces/ns1/status',
      {
        verb: 'update',
        namespace: 'ns1',
        resource: 'namespaces',
        name: 'ns1',
        subresource: 'status',
        parts: ['namespaces', 'ns1', 'status'],
      },
    ],
    [
      'PUT',
      '/api/v1/namespaces/ns1/finalize',
      { verb: 'update', namespace: 'ns1', resource: 'namespaces', name: 'ns1', subresource: 'finalize' },
    ],
    ['DELETE', '/api/v1/namespaces/ns1', { verb: 'delete', resource: 'namespaces', name: 'ns1' }],
    // legacy watch path prefix
    ['GET', '/api/v1/watch/pods', { verb: 'watch', namespace: '', resource: 'pods', name: '', parts: ['pods'] }],
    ['GET', '/api/v1/watch/namespaces/ns1/pods', { verb: 'watch', namespace: 'ns1', resource: 'pods', name: '' }],
    ['GET', '/api/v1/watch/namespaces/ns1/pods/p1', { verb: 'watch', namespace: 'ns1', resource: 'pods', name: 'p1' }],
    ['GET', '/api/v1/watch/namespaces', { verb: 'watch', resource: 'namespaces', name: '' }],
    ['GET', '/api/v1/watch/namespaces/ns1', { verb: 'watch', namespace: 'ns1', resource: 'namespaces', name: 'ns1' }],
    [
      'GET',
      '/apis/apps/v1/watch/namespaces/ns1/deployments',
      { verb: 'watch', apiGroup: 'apps', namespace: 'ns1', resource: 'deployments' },
    ],
    ['GET', '/api/v1/watch/pods?watch=false', { verb: 'watch', resource: 'pods' }],
    // proxy path prefix: no sub-resource, the rest is the proxied path
    [
      'GET',
      '/api/v1/proxy/namespaces/ns1/pods/p1/a/b',
      { verb: 'proxy', resource: 'pods', name: 'p1', subresource: '', parts: ['pods', 'p1', 'a', 'b'] },
    ],
  ];
  for (const [method, url, expected] of rows) {
    it(`${method} ${url}`, () => check(method, url, { isResourceRequest: true, ...expected }));
  }
});

describe('parseRequestInfo: verb derivation', () => {
  const rows: [string, string, string][] = [
    ['POST', '/api/v1/namespaces/ns1/pods', 'create'],
    ['POST', '/api/v1/namespaces', 'create'],
    ['GET', '/api/v1/namespaces/ns1/pods/p1', 'get'],
    ['HEAD', '/api/v1/namespaces/ns1/pods/p1', 'get'],
    ['GET', '/api/v1/namespaces/ns1/pods', 'list'],
    ['HEAD', '/api/v1/pods', 'list'],
    ['GET', '/api/v1/pods?watch=true', 'watch'],
    ['GET', '/api/v1/pods?watch=1', 'watch'],
    ['GET', '/api/v1/pods?watch=True', 'watch'],
    ['GET', '/api/v1/pods?watch', 'watch'],
    ['GET', '/api/v1/pods?watch=', 'watch'],
    ['GET', '/api/v1/pods?watch=yes', 'watch'],
    ['GET', '/api/v1/pods?watch=false', 'list'],
    ['GET', '/api/v1/pods?watch=FALSE', 'list'],
    ['GET', '/api/v1/pods?watch=0', 'list'],
    ['GET', '/api/v1/pods?watch=0&watch=1', 'list'],
    ['HEAD', '/api/v1/pods?watch=1', 'watch'],
    // a named GET is a get even with watch=true (the watch of one object uses the fieldSelector form)
    ['GET', '/api/v1/namespaces/ns1/pods/p1?watch=true', 'get'],
    ['PUT', '/api/v1/namespaces/ns1/pods/p1', 'update'],
    ['PATCH', '/api/v1/namespaces/ns1/pods/p1', 'patch'],
    ['DELETE', '/api/v1/namespaces/ns1/pods/p1', 'delete'],
    ['DELETE', '/api/v1/namespaces/ns1/pods', 'deletecollection'],
    ['DELETE', '/api/v1/nodes', 'deletecollection'],
    ['DELETE', '/api/v1/namespaces', 'deletecollection'],
    ['DELETE', '/apis/apps/v1/namespaces/ns1/deployments', 'deletecollection'],
    ['OPTIONS', '/api/v1/pods', ''],
    ['CONNECT', '/api/v1/namespaces/ns1/pods/p1', ''],
  ];
  for (const [method, url, verb] of rows) {
    it(`${method} ${url} → ${verb || '(empty)'}`, () => check(method, url, { isResourceRequest: true, verb }));
  }
});

describe('parseRequestInfo: fieldSelector metadata.name', () => {
  const rows: [string, string, Expected][] = [
    ['GET', '/api/v1/namespaces/ns1/pods?fieldSelector=metadata.name%3Dp1', { verb: 'list', name: 'p1' }],
    ['GET', '/api/v1/namespaces/ns1/pods?fieldSelector=metadata.name%3D%3Dp1', { verb: 'list', name: 'p1' }],
    ['GET', '/api/v1/namespaces/ns1/pods?watch=true&fieldSelector=metadata.name%3Dp1', { verb: 'watch', name: 'p1' }],
    ['GET', '/api/v1/pods?fieldSelector=spec.nodeName%3Dn1,metadata.name%3Dp1', { verb: 'list', name: 'p1' }],
    ['GET', '/api/v1/pods?fieldSelector=metadata.name!%3Dp1', { verb: 'list', name: '' }],
    ['GET', '/api/v1/pods?fieldSelector=spec.nodeName%3Dn1', { verb: 'list', name: '' }],
    // malformed selectors pin nothing; the verb is unaffected
    ['GET', '/api/v1/pods?fieldSelector=metadata.name%3Dp1,foo', { verb: 'list', name: '' }],
    ['GET', '/api/v1/pods?fieldSelector=metadata.name%3Dp1,foo&watch=true', { verb: 'watch', name: '' }],
    ['GET', '/api/v1/pods?fieldSelector=metadata.name%3Da%5Cq', { verb: 'list', name: '' }],
    // escapes are undone before the name is adopted
    ['GET', '/api/v1/pods?fieldSelector=metadata.name%3Da%5C%3Db', { verb: 'list', name: 'a=b' }],
    // names that could not be a path segment are not adopted
    ['GET', '/api/v1/pods?fieldSelector=metadata.name%3D..', { verb: 'list', name: '' }],
    ['GET', '/api/v1/pods?fieldSelector=metadata.name%3Da%25b', { verb: 'list', name: '' }],
    // a query that fails to decode as ListOptions drops the selector but keeps watch
    ['GET', '/api/v1/pods?fieldSelector=metadata.name%3Dp1&limit=abc', { verb: 'list', name: '' }],
    ['GET', '/api/v1/pods?fieldSelector=metadata.name%3Dp1&timeoutSeconds=&watch=1', { verb: 'watch', name: '' }],
    ['GET', '/api/v1/pods?fieldSelector=metadata.name%3Dp1&limit=500', { verb: 'list', name: 'p1' }],
    // only get-turned-list/watch adopts it
    ['DELETE', '/api/v1/namespaces/ns1/pods?fieldSelector=metadata.name%3Dp1', { verb: 'deletecollection', name: '' }],
  ];
  for (const [method, url, expected] of rows) {
    it(`${method} ${url}`, () => check(method, url, expected));
  }
});

describe('parseRequestInfo: selectors for authorization', () => {
  const rows: [string, string, Expected][] = [
    [
      'GET',
      '/api/v1/pods?labelSelector=a%3Db&fieldSelector=x%3Dy',
      { verb: 'list', labelSelector: 'a=b', fieldSelector: 'x=y' },
    ],
    ['GET', '/api/v1/pods?watch=1&labelSelector=a', { verb: 'watch', labelSelector: 'a', fieldSelector: '' }],
    ['DELETE', '/api/v1/namespaces/ns1/pods?labelSelector=a', { verb: 'deletecollection', labelSelector: 'a' }],
    ['GET', '/api/v1/watch/pods?labelSelector=a', { verb: 'watch', labelSelector: '' }],
    ['GET', '/api/v1/namespaces/ns1/pods/p1?labelSelector=a', { verb: 'get', labelSelector: '' }],
    ['GET', '/api/v1/pods', { verb: 'list', labelSelector: '', fieldSelector: '' }],
  ];
  for (const [method, url, expected] of rows) {
    it(`${method} ${url}`, () => check(method, url, expected));
  }
});

describe('parseRequestInfo: non-resource requests', () => {
  const rows: [string, string, Expected][] = [
    ['GET', '/healthz', { verb: 'get', apiPrefix: '' }],
    ['GET', '/livez/etcd', { verb: 'get' }],
    ['POST', '/healthz', { verb: 'post' }],
    ['GET', '/version', { verb: 'get' }],
    ['GET', '/openapi/v2', { verb: 'get' }],
    ['GET', '/openapi/v3/apis/apps/v1', { verb: 'get', apiPrefix: '' }],
    ['GET', '/', { verb: 'get' }],
    ['GET', '', { verb: 'get' }],
    ['GET', '/api', { verb: 'get', apiPrefix: '' }],
    ['GET', '/api/', { verb: 'get' }],
    ['GET', '/api/v1', { verb: 'get', apiPrefix: '', apiVersion: '' }],
    ['GET', '/api/v1/', { verb: 'get' }],
    ['GET', '/apis', { verb: 'get' }],
    ['GET', '/apis/apps', { verb: 'get', apiGroup: '' }],
    ['GET', '/apis/apps/', { verb: 'get' }],
    // kube records the prefix before deciding a named-group path is too short
    ['GET', '/apis/apps/v1', { verb: 'get', apiPrefix: 'apis', apiGroup: '', apiVersion: '' }],
    ['GET', '/apis/apps/v1/', { verb: 'get', apiPrefix: 'apis' }],
    ['PATCH', '/badprefix/v1/pods', { verb: 'patch' }],
    ['HEAD', '/apis/v1/pods', { verb: 'head' }],
  ];
  for (const [method, url, expected] of rows) {
    it(`${method} ${url || '(empty)'}`, () =>
      check(method, url, { isResourceRequest: false, resource: '', name: '', namespace: '', parts: [], ...expected }));
  }

  it('keeps the path as given', () => {
    assert.equal(parse('GET', '/healthz/').path, '/healthz/');
  });
});

describe('parseRequestInfo: edge cases', () => {
  it('ignores leading and trailing slashes', () => {
    check('GET', '/api/v1/pods/', { isResourceRequest: true, verb: 'list', resource: 'pods', parts: ['pods'] });
    check('GET', '//api/v1/namespaces/ns1/pods/p1//', {
      verb: 'get',
      namespace: 'ns1',
      name: 'p1',
      parts: ['pods', 'p1'],
    });
  });

  it('keeps inner empty segments, as kube does', () => {
    check('GET', '/api/v1//pods', {
      isResourceRequest: true,
      verb: 'get',
      resource: '',
      name: 'pods',
      parts: ['', 'pods'],
    });
    check('GET', '/api/v1/namespaces//pods', { namespace: '', resource: 'pods', verb: 'list', parts: ['pods'] });
  });

  it('treats a namespace named like a sub-resource keyword by position', () => {
    check('GET', '/api/v1/namespaces/status', { namespace: 'status', resource: 'namespaces', name: 'status' });
    check('GET', '/api/v1/namespaces/ns1/status/x', {
      resource: 'namespaces',
      name: 'ns1',
      subresource: 'status',
      parts: ['namespaces', 'ns1', 'status', 'x'],
    });
  });

  it('rejects a special verb with nothing after it, keeping what was parsed', () => {
    for (const [url, group] of [
      ['/api/v1/watch', ''],
      ['/apis/apps/v1/watch', 'apps'],
      ['/api/v1/proxy', ''],
    ]) {
      assert.throws(
        () => parse('GET', url),
        (err: unknown) => {
          assert.ok(err instanceof RequestInfoError);
          assert.equal(err.code, 'UnresolvableRequest');
          assert.equal(err.message, `unable to determine kind and namespace from url, ${url}`);
          assert.equal(err.info.isResourceRequest, true);
          assert.equal(err.info.apiGroup, group);
          assert.equal(err.info.apiVersion, 'v1');
          return true;
        },
      );
    }
    assert.throws(() => parse('GET', '/api/v1/watch?x=1'), {
      message: 'unable to determine kind and namespace from url, /api/v1/watch?x=1',
    });
  });

  it('is case-sensitive for methods, like net/http', () => {
    check('get', '/api/v1/pods', { isResourceRequest: true, verb: '' });
  });
});

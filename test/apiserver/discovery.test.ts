import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { decodeOpenApiV2, hasProtobufPrefix } from '../../src/encoding/protobuf/index.js';
import { apiOf } from '../support/api.js';
import { type ServerProcess, startServerProcess } from '../support/server-process.js';

describe('discovery and schema documents', () => {
  let server: ServerProcess;
  let api: ReturnType<typeof apiOf>['admin'];
  before(async () => {
    server = await startServerProcess();
    api = apiOf(server).admin;
  });
  after(async () => server?.dispose());

  it('/api lists the core version', async () => {
    const r = (await api('GET', '/api')).json();
    assert.equal(r.kind, 'APIVersions');
    assert.deepEqual(r.versions, ['v1']);
    assert.equal(r.serverAddressByClientCIDRs[0].serverAddress, new URL(server.url).host);
  });

  it('/api/v1 lists resources with their discovery fields and sub-resources', async () => {
    const r = (await api('GET', '/api/v1')).json();
    assert.equal(r.kind, 'APIResourceList');
    assert.equal(r.groupVersion, 'v1');
    const byName = new Map(r.resources.map((x: { name: string }) => [x.name, x]));
    assert.deepEqual(byName.get('configmaps'), {
      name: 'configmaps',
      singularName: 'configmap',
      namespaced: true,
      kind: 'ConfigMap',
      verbs: ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'],
      shortNames: ['cm'],
    });
    const ns = byName.get('namespaces') as { namespaced: boolean; shortNames: string[] };
    assert.equal(ns.namespaced, false);
    assert.deepEqual(ns.shortNames, ['ns']);
    assert.ok(byName.has('namespaces/status'));
    assert.ok(byName.has('namespaces/finalize'));
    for (const n of ['secrets', 'serviceaccounts', 'events']) assert.ok(byName.has(n), n);
  });

  it('/apis and /apis/<group> and /apis/<group>/<version> describe the named groups', async () => {
    const list = (await api('GET', '/apis')).json();
    assert.equal(list.kind, 'APIGroupList');
    const coord = list.groups.find((g: { name: string }) => g.name === 'coordination.orch.io');
    assert.deepEqual(coord.preferredVersion, { groupVersion: 'coordination.orch.io/v1', version: 'v1' });
    const group = (await api('GET', '/apis/coordination.orch.io')).json();
    assert.equal(group.kind, 'APIGroup');
    assert.equal(group.name, 'coordination.orch.io');
    const gv = (await api('GET', '/apis/coordination.orch.io/v1')).json();
    assert.equal(gv.groupVersion, 'coordination.orch.io/v1');
    assert.equal(gv.resources[0].name, 'leases');
    assert.equal(gv.resources[0].kind, 'Lease');
  });

  it('serves aggregated discovery when the client asks for it', async () => {
    const accept = 'application/json;g=apidiscovery.orch.io;v=v2;as=APIGroupDiscoveryList,application/json';
    const core = await api('GET', '/api', { headers: { accept } });
    assert.equal(core.headers['content-type'], 'application/json;g=apidiscovery.orch.io;v=v2;as=APIGroupDiscoveryList');
    const doc = core.json();
    assert.equal(doc.kind, 'APIGroupDiscoveryList');
    assert.equal(doc.apiVersion, 'apidiscovery.orch.io/v2');
    const v1 = doc.items[0].versions[0];
    const cm = v1.resources.find((r: { resource: string }) => r.resource === 'configmaps');
    assert.deepEqual(cm.responseKind, { group: '', version: 'v1', kind: 'ConfigMap' });
    assert.equal(cm.scope, 'Namespaced');
    const named = (await api('GET', '/apis', { headers: { accept } })).json();
    assert.ok(named.items.some((g: { metadata: { name: string } }) => g.metadata.name === 'coordination.orch.io'));
    // A client asking for the upstream group gets the plain documents.
    const upstream = await api('GET', '/apis', {
      headers: { accept: 'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList,application/json' },
    });
    assert.equal(upstream.json().kind, 'APIGroupList');
  });

  it("/version reports the API level, with the package's version as build metadata", async () => {
    const v = (await api('GET', '/version')).json();
    assert.equal(v.major, '1');
    assert.equal(v.minor, '32');
    const pkg = JSON.parse(readFileSync(join(import.meta.dirname, '..', '..', 'package.json'), 'utf8'));
    assert.equal(v.gitVersion, `v1.32.0+orch.${pkg.version}`);
  });

  it('serves OpenAPI v2 and v3 built from the type schemas', async () => {
    const v2 = (await api('GET', '/openapi/v2', { headers: { accept: 'application/json' } })).json();
    assert.equal(v2.swagger, '2.0');
    const cmDef = Object.entries(v2.definitions).find(([k]) => k.endsWith('core.v1.ConfigMap'));
    assert.ok(cmDef, 'ConfigMap definition');
    const root = (await api('GET', '/openapi/v3')).json();
    const url = root.paths['apis/coordination.orch.io/v1'].serverRelativeURL;
    assert.match(url, /^\/openapi\/v3\/apis\/coordination\.orch\.io\/v1\?hash=[0-9A-F]+$/);
    const doc = await api('GET', url);
    assert.equal(doc.status, 200);
    assert.match(String(doc.headers.etag), /^"[0-9A-F]+"$/);
    const schemas = doc.json().components.schemas;
    const lease = Object.values(schemas).find(
      (s) =>
        (s as { 'x-kubernetes-group-version-kind'?: { kind: string }[] })['x-kubernetes-group-version-kind']?.[0]
          ?.kind === 'Lease',
    );
    assert.ok(lease, 'Lease schema with its group-version-kind');
    const stale = await api('GET', '/openapi/v3/apis/coordination.orch.io/v1?hash=STALE');
    assert.equal(stale.status, 301);
  });

  it('serves OpenAPI v2 as gnostic protobuf for the Accept kubectl sends', async () => {
    const json = (await api('GET', '/openapi/v2', { headers: { accept: 'application/json' } })).json();
    for (const accept of [
      'application/com.github.proto-openapi.spec.v2@v1.0+protobuf',
      'application/com.github.proto-openapi.spec.v2.v1.0+protobuf',
      'application/com.github.proto-openapi.spec.v2@v1.0+protobuf, application/json',
    ]) {
      const r = await api('GET', '/openapi/v2', { headers: { accept } });
      assert.equal(r.status, 200, accept);
      assert.equal(r.headers['content-type'], 'application/com.github.proto-openapi.spec.v2.v1.0+protobuf');
      assert.equal(r.headers.vary, 'Accept');
      assert.ok(!hasProtobufPrefix(r.body), 'a plain message, not the k8s envelope');
      const doc = decodeOpenApiV2(r.body) as typeof json;
      assert.equal(doc.swagger, '2.0');
      assert.deepEqual(Object.keys(doc.definitions), Object.keys(json.definitions));
      assert.deepEqual(Object.keys(doc.paths), Object.keys(json.paths));
      const cm = Object.entries(doc.definitions).find(([k]) => k.endsWith('core.v1.ConfigMap'))?.[1] as {
        'x-kubernetes-group-version-kind': unknown;
      };
      assert.deepEqual(cm['x-kubernetes-group-version-kind'], [{ group: '', kind: 'ConfigMap', version: 'v1' }]);
    }
    // JSON first in Accept (or no Accept) is JSON; nothing acceptable is kube-openapi's empty 406.
    const plain = await api('GET', '/openapi/v2');
    assert.equal(plain.headers['content-type'], 'application/json');
    const none = await api('GET', '/openapi/v2', { headers: { accept: 'text/html' } });
    assert.equal(none.status, 406);
    assert.equal(none.body.length, 0);
  });

  it('lists the served paths at /, sorted, as kube-apiserver does', async () => {
    const r = await api('GET', '/');
    assert.equal(r.status, 200);
    assert.equal(r.headers['content-type'], 'application/json');
    const { paths } = r.json();
    assert.equal(r.text, JSON.stringify({ paths }, null, 2));
    assert.deepEqual(paths, [...paths].sort());
    for (const p of [
      '/api',
      '/api/v1',
      '/apis',
      '/apis/',
      '/apis/coordination.orch.io',
      '/apis/coordination.orch.io/v1',
      '/healthz',
      '/healthz/etcd',
      '/healthz/ping',
      '/healthz/poststarthook/bootstrap-namespaces',
      '/livez',
      '/livez/ping',
      '/metrics',
      '/readyz',
      '/readyz/shutdown',
      '/openapi/v2',
      '/openapi/v3',
      '/openapi/v3/',
      '/version',
    ]) {
      assert.ok(paths.includes(p), p);
    }
    // Every listed path is served.
    for (const p of paths) assert.equal((await api('GET', p)).status, 200, p);
    assert.deepEqual((await api('GET', '/index.html')).json(), { paths });
  });

  it('sends Cache-Control: no-cache, private on every response, errors included', async () => {
    const anonymous = apiOf(server).anonymous;
    const cases: Array<[string, Promise<{ status: number; headers: Record<string, unknown> }>]> = [
      ['/', api('GET', '/')],
      ['/api', api('GET', '/api')],
      ['/apis/coordination.orch.io/v1', api('GET', '/apis/coordination.orch.io/v1')],
      ['/version', api('GET', '/version')],
      ['/openapi/v2', api('GET', '/openapi/v2')],
      ['/openapi/v3', api('GET', '/openapi/v3')],
      ['/healthz', api('GET', '/healthz')],
      ['/readyz?verbose', api('GET', '/readyz?verbose')],
      ['/livez/nope (404)', api('GET', '/livez/nope')],
      ['/nope (404)', api('GET', '/nope')],
      ['list', api('GET', '/api/v1/namespaces/default/configmaps')],
      ['get (404)', api('GET', '/api/v1/namespaces/default/configmaps/missing')],
      ['list (422)', api('GET', '/api/v1/configmaps?resourceVersionMatch=Exact')],
      [
        'create (201)',
        api('POST', '/api/v1/namespaces/default/configmaps', { body: { metadata: { generateName: 'cc-' } } }),
      ],
      ['anonymous', anonymous('GET', '/api/v1/namespaces')],
    ];
    for (const [name, pending] of cases) {
      const r = await pending;
      assert.equal(r.headers['cache-control'], 'no-cache, private', `${name}: ${r.status}`);
    }
    // A document that is immutable for its hash keeps its own caching.
    const url = (await api('GET', '/openapi/v3')).json().paths['api/v1'].serverRelativeURL;
    assert.equal((await api('GET', url)).headers['cache-control'], 'public, immutable');
  });
});

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { stringify as toYaml } from 'yaml';
import { type InProcessServer, startInProcess } from '../pipeline/server-fixture.js';
import { crdManifest, crdPath, createEstablished, eventually, WIDGET_SCHEMA } from './crd-fixtures.js';

// biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary JSON
type Json = any;

const APPLY = { 'content-type': 'application/apply-patch+yaml' };

describe('custom resource versions, defaults, pruning and apply', () => {
  let s: InProcessServer;
  before(async () => {
    s = await startInProcess({ runControllers: true });
  });
  after(() => s.stop());

  describe('several served versions with conversion None', () => {
    const schema = {
      openAPIV3Schema: {
        type: 'object',
        properties: { spec: { type: 'object', properties: { size: { type: 'integer' } } } },
      },
    };
    const version = (name: string, extra: object = {}) => ({ name, served: true, storage: false, schema, ...extra });
    const manifest = crdManifest({
      group: 'versions.example.com',
      plural: 'things',
      kind: 'Thing',
      versions: [
        version('v1'),
        version('v2', { storage: true }),
        version('v1beta1', { deprecated: true }),
        version('v1alpha1', { deprecated: true, deprecationWarning: 'v1alpha1 goes away soon' }),
        version('v3alpha1', { served: false }),
      ],
    });
    before(async () => {
      await createEstablished(s.api.admin, manifest);
    });

    it('lists served versions by kube priority, the highest preferred', async () => {
      const group = (await s.api.admin('GET', '/apis/versions.example.com')).json();
      assert.deepEqual(
        group.versions.map((v: Json) => v.version),
        ['v2', 'v1', 'v1beta1', 'v1alpha1'],
      );
      assert.equal(group.preferredVersion.version, 'v2');
      assert.equal((await s.api.admin('GET', '/apis/versions.example.com/v3alpha1/things')).status, 404);
    });

    it('stores in the storage version and shows each version its own apiVersion', async () => {
      const c = await s.api.admin('POST', '/apis/versions.example.com/v1/namespaces/default/things', {
        body: { apiVersion: 'versions.example.com/v1', kind: 'Thing', metadata: { name: 't' }, spec: { size: 2 } },
      });
      assert.equal(c.status, 201, c.text);
      assert.equal(c.json().apiVersion, 'versions.example.com/v1');
      for (const v of ['v1', 'v2', 'v1beta1']) {
        const g = (await s.api.admin('GET', `/apis/versions.example.com/${v}/namespaces/default/things/t`)).json();
        assert.equal(g.apiVersion, `versions.example.com/${v}`);
        assert.equal(g.spec.size, 2);
      }
      const list = (await s.api.admin('GET', '/apis/versions.example.com/v2/things')).json();
      assert.equal(list.apiVersion, 'versions.example.com/v2');
      assert.equal(list.items[0].apiVersion, 'versions.example.com/v2');
      const mismatched = await s.api.admin('POST', '/apis/versions.example.com/v2/namespaces/default/things', {
        body: { apiVersion: 'versions.example.com/v1', kind: 'Thing', metadata: { name: 'u' } },
      });
      assert.equal(mismatched.status, 400);
    });

    it('warns on every request of a deprecated version', async () => {
      const beta = await s.api.admin('GET', '/apis/versions.example.com/v1beta1/things');
      assert.equal(
        beta.headers.warning,
        '299 - "versions.example.com/v1beta1 Thing is deprecated; use versions.example.com/v2 Thing"',
      );
      const alpha = await s.api.admin('GET', '/apis/versions.example.com/v1alpha1/namespaces/default/things/t');
      assert.equal(alpha.headers.warning, '299 - "v1alpha1 goes away soon"');
      assert.equal((await s.api.admin('GET', '/apis/versions.example.com/v1/things')).headers.warning, undefined);
      // apiserver_requested_deprecated_apis is 1 for each deprecated version requested, joinable
      // with apiserver_request_total on group, version, resource and sub-resource.
      const metrics = (await s.api.admin('GET', '/metrics')).text;
      // Label pairs are printed sorted by name, as the Prometheus Go client prints them.
      for (const v of ['v1beta1', 'v1alpha1']) {
        assert.ok(
          metrics.includes(
            `apiserver_requested_deprecated_apis{group="versions.example.com",removed_release="",resource="things",subresource="",version="${v}"} 1`,
          ),
          v,
        );
        assert.match(
          metrics,
          new RegExp(
            `apiserver_request_total\\{code="200",component="apiserver",dry_run="",group="versions.example.com",resource="things",scope="[a-z]+",subresource="",verb="(GET|LIST)",version="${v}"\\} \\d+`,
          ),
        );
      }
      assert.doesNotMatch(
        metrics,
        /apiserver_requested_deprecated_apis\{group="versions.example.com",removed_release="",resource="things",subresource="",version="v1"\}/,
      );
    });

    it('records every storage version in status.storedVersions', async () => {
      const crd = (await s.api.admin('GET', crdPath(undefined, 'things.versions.example.com'))).json();
      assert.deepEqual(crd.status.storedVersions, ['v2']);
      for (const v of crd.spec.versions) v.storage = v.name === 'v1';
      const put = await s.api.admin('PUT', crdPath(undefined, 'things.versions.example.com'), { body: crd });
      assert.equal(put.status, 200, put.text);
      assert.deepEqual(put.json().status.storedVersions, ['v2', 'v1']);
      // Objects written before stay readable in every version.
      await eventually('served again', async () => {
        const g = await s.api.admin('GET', '/apis/versions.example.com/v1/namespaces/default/things/t');
        return g.status === 200 && g.json().spec.size === 2 ? true : undefined;
      });
    });
  });

  describe('defaults and pruning on read', () => {
    const base = '/apis/reads.example.com/v1/namespaces/default/docs';
    it('defaults and prunes stored objects with the current schema', async () => {
      const schema = (properties: object) => ({
        openAPIV3Schema: { type: 'object', properties: { spec: { type: 'object', properties } } },
      });
      const manifest = crdManifest({
        group: 'reads.example.com',
        plural: 'docs',
        kind: 'Doc',
        versions: [
          {
            name: 'v1',
            served: true,
            storage: true,
            schema: schema({ old: { type: 'string' }, kept: { type: 'string' } }),
          },
        ],
      }) as Json;
      await createEstablished(s.api.admin, manifest);
      const c = await s.api.admin('POST', base, {
        body: {
          apiVersion: 'reads.example.com/v1',
          kind: 'Doc',
          metadata: { name: 'd' },
          spec: { old: 'x', kept: 'y' },
        },
      });
      assert.equal(c.status, 201, c.text);
      const crd = (await s.api.admin('GET', crdPath(undefined, 'docs.reads.example.com'))).json();
      crd.spec.versions[0].schema = schema({ kept: { type: 'string' }, mode: { type: 'string', default: 'auto' } });
      assert.equal((await s.api.admin('PUT', crdPath(undefined, 'docs.reads.example.com'), { body: crd })).status, 200);
      const read = await eventually('read with the new schema', async () => {
        const g = (await s.api.admin('GET', `${base}/d`)).json();
        return g.spec?.mode === 'auto' ? g : undefined;
      });
      assert.deepEqual(read.spec, { kept: 'y', mode: 'auto' });
      const cached = (await s.api.admin('GET', `${base}/d?resourceVersion=0`)).json();
      assert.deepEqual(cached.spec, { kept: 'y', mode: 'auto' });
      const listed = (await s.api.admin('GET', base)).json();
      assert.deepEqual(listed.items[0].spec, { kept: 'y', mode: 'auto' });
    });
  });

  describe('server-side apply with the schema’s list and map markers', () => {
    const base = '/apis/example.com/v1/namespaces/default/widgets';
    const applied = (manager: string, spec: object, force = false) =>
      s.api.admin('PATCH', `${base}/m?fieldManager=${manager}${force ? '&force=true' : ''}`, {
        body: toYaml({ apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'm' }, spec }),
        headers: APPLY,
      });
    before(async () => {
      await createEstablished(
        s.api.admin,
        crdManifest({
          versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: WIDGET_SCHEMA } }],
        }),
      );
    });

    it('merges map lists by key and sets by value, and replaces atomic maps whole', async () => {
      const a = await applied('a', { ports: [{ name: 'http', port: 80 }], tags: ['alpha'], config: { k1: 'v1' } });
      assert.equal(a.status, 201, a.text);
      const b = await applied('b', { ports: [{ name: 'https', port: 443 }], tags: ['beta'] });
      assert.equal(b.status, 200, b.text);
      assert.deepEqual(b.json().spec.ports, [
        { name: 'http', port: 80 },
        { name: 'https', port: 443 },
      ]);
      assert.deepEqual(b.json().spec.tags, ['alpha', 'beta']);
      const conflict = await applied('b', {
        ports: [{ name: 'https', port: 443 }],
        tags: ['beta'],
        config: { k2: 'v2' },
      });
      assert.equal(conflict.status, 409, conflict.text);
      assert.match(conflict.json().message, /conflict with "a": \.spec\.config/);
      const forced = await applied(
        'b',
        { ports: [{ name: 'https', port: 443 }], tags: ['beta'], config: { k2: 'v2' } },
        true,
      );
      assert.equal(forced.status, 200, forced.text);
      assert.deepEqual(forced.json().spec.config, { k2: 'v2' });
      const dropped = await applied('a', { tags: ['alpha'] });
      assert.equal(dropped.status, 200, dropped.text);
      assert.deepEqual(dropped.json().spec.ports, [{ name: 'https', port: 443 }]);
      assert.deepEqual(dropped.json().spec.tags, ['alpha', 'beta']);
      assert.equal(dropped.json().spec.replicas, 1, 'defaults apply to applied objects');
    });
  });
});

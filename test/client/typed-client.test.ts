import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { ORCH_DOMAIN } from '../../src/apis/api-domain.js';
import type { ConfigMap } from '../../src/apis/core/config-map.js';
import { HttpApiClient } from '../../src/client/api/http-api-client.js';
import { loadKubeconfig } from '../../src/client/rest/kubeconfig.js';
import {
  ConfigMaps,
  Deployments,
  LeaseCandidates,
  Leases,
  Namespaces,
  RoleBindings,
} from '../../src/client/typed/builtin-types.js';
import { resourceType } from '../../src/client/typed/resource-type.js';
import { ResourceNotServedError, type TypedWatchEvent } from '../../src/client/typed/typed-client.js';
import { type RunningServer, startServer } from '../../src/server/start-server.js';
import { statusOf } from '../support/status-of.js';

const D = ORCH_DOMAIN;
const NS = 'typed';

for (const [profile, contentType] of [
  ['JSON', undefined],
  ['Protobuf', 'application/vnd.kubernetes.protobuf'],
] as const) {
  describe(`typed clients against a real server (${profile})`, () => {
    let dataDir: string;
    let server: RunningServer;
    let client: HttpApiClient;

    before(async () => {
      dataDir = await mkdtemp(join(tmpdir(), 'orch-typed-client-'));
      server = await startServer({ dataDir, securePort: 0, bindAddress: '127.0.0.1', runControllers: false });
      const config = await loadKubeconfig(server.kubeconfigPath!);
      client = await HttpApiClient.connect({
        config,
        domain: D,
        fieldManager: 'typed-test',
        qps: -1,
        discoveryPeriodMs: 0,
        contentType,
      });
      await client.typed(Namespaces).create('', { metadata: { name: NS } });
    });
    after(async () => {
      client?.close();
      await server?.close();
      await rm(dataDir, { recursive: true, force: true });
    });

    it('creates, reads, lists, updates, patches, applies and deletes ConfigMaps as ConfigMap', async () => {
      const cms = client.typed(ConfigMaps);
      const created: ConfigMap = await cms.create(NS, {
        metadata: { name: 'a', labels: { app: 'x' } },
        data: { k: '1' },
      });
      assert.deepEqual([created.apiVersion, created.kind, created.data], ['v1', 'ConfigMap', { k: '1' }]);
      const got = await cms.get(NS, 'a');
      assert.equal(got.data?.k, '1');
      const list = await cms.list(NS, { labelSelector: 'app=x' });
      assert.deepEqual(
        list.items.map((c) => c.metadata.name),
        ['a'],
      );
      assert.ok(list.resourceVersion);
      const updated = await cms.update({ ...got, data: { k: '2' } });
      assert.equal(updated.data?.k, '2');
      assert.equal((await statusOf(cms.update({ ...got, data: { k: 'stale' } }))).code, 409);
      const merged = await cms.patch(NS, 'a', 'merge', { data: { m: 'x' } });
      assert.deepEqual(merged.data, { k: '2', m: 'x' });
      const jsonPatched = await cms.patch(NS, 'a', 'json', [{ op: 'remove', path: '/data/m' }]);
      assert.deepEqual(jsonPatched.data, { k: '2' });
      const applied = await cms.apply(NS, { metadata: { name: 'b' }, data: { owned: 'yes' } });
      assert.deepEqual(applied.data, { owned: 'yes' });
      assert.equal(applied.metadata.managedFields?.[0]?.operation, 'Apply');
      await cms.delete(NS, 'b');
      assert.equal((await statusOf(cms.get(NS, 'b'))).code, 404);

      // Types hold at compile time: these lines are type errors (checked by `npm run typecheck`).
      // @ts-expect-error ConfigMap data values are strings (the server, or the Protobuf encoder, refuses it too).
      await assert.rejects(cms.create(NS, { metadata: { name: 'bad' }, data: { n: 1 } }));
      // @ts-expect-error an apply configuration needs a name.
      await cms.apply(NS, { metadata: {} }).catch(() => undefined);
    });

    it('works on cluster-scoped kinds, domain groups, named groups and the status sub-resource', async () => {
      const ns = await client.typed(Namespaces).get('', NS);
      assert.equal(ns.status?.phase, 'Active');

      const leases = client.typed(Leases);
      const lease = await leases.create(NS, {
        metadata: { name: 'l' },
        spec: { holderIdentity: 'me', leaseDurationSeconds: 15 },
      });
      assert.equal(lease.apiVersion, `${D.group('coordination')}/v1`);
      assert.equal(lease.spec?.holderIdentity, 'me');

      const bindings = client.typed(RoleBindings);
      const rb = await bindings.apply(NS, {
        metadata: { name: 'rb' },
        roleRef: { apiGroup: D.group('rbac.authorization'), kind: 'ClusterRole', name: 'view' },
        subjects: [{ kind: 'User', name: 'ann', apiGroup: D.group('rbac.authorization') }],
      });
      assert.equal(rb.subjects?.[0]?.name, 'ann');

      const deployments = client.typed(Deployments);
      const d = await deployments.create(NS, {
        metadata: { name: 'web' },
        spec: {
          selector: { matchLabels: { app: 'web' } },
          template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } },
        },
      });
      assert.equal(d.apiVersion, 'apps/v1');
      assert.equal((d.spec as { replicas?: number }).replicas, 1);
      const withStatus = await deployments.updateStatus({ ...d, status: { observedGeneration: 1, replicas: 0 } });
      assert.equal((withStatus.status as { observedGeneration?: number }).observedGeneration, 1);
    });

    it('watches typed events', async () => {
      const cms = client.typed(ConfigMaps);
      const start = await cms.list(NS, { limit: 1 });
      const w = await cms.watch(NS, { resourceVersion: start.resourceVersion, timeoutSeconds: 20 });
      await cms.create(NS, { metadata: { name: 'watched' }, data: { v: '1' } });
      await cms.delete(NS, 'watched');
      const seen: TypedWatchEvent<ConfigMap>[] = [];
      for await (const ev of w) {
        seen.push(ev);
        if (ev.type === 'DELETED') break;
      }
      w.stop();
      assert.deepEqual(
        seen.map((ev) => (ev.type === 'ERROR' ? ['ERROR', ev.object.code] : [ev.type, ev.object.data?.v])),
        [
          ['ADDED', '1'],
          ['DELETED', '1'],
        ],
      );
    });

    it('refuses a resource the server does not serve, or of another kind', () => {
      // LeaseCandidate is alpha (v1alpha2) and off by default.
      assert.throws(() => client.typed(LeaseCandidates), ResourceNotServedError);
      const wrongKind = resourceType<ConfigMap>({
        group: '',
        version: 'v1',
        resource: 'secrets',
        kind: 'ConfigMap',
        namespaced: true,
      });
      assert.throws(() => client.typed(wrongKind), /secrets serves Secret objects, not ConfigMap/);
    });
  });
}

import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { ORCH_DOMAIN } from '../../src/apis/api-domain.js';
import { StatusError } from '../../src/apis/meta/status.js';
import type { ApiObject } from '../../src/apis/object.js';
import type {
  ApiResource,
  ApiResourceChange,
  ClientWatchEvent,
  ResourceClient,
} from '../../src/client/api/api-client.js';
import { discover } from '../../src/client/api/discovery.js';
import { HttpApiClient } from '../../src/client/api/http-api-client.js';
import { loadKubeconfig, type RestConfig } from '../../src/client/rest/kubeconfig.js';
import { RestClient } from '../../src/client/rest/rest-client.js';
import { type RunningServer, startServer } from '../../src/server/start-server.js';
import { statusOf } from '../support/status-of.js';

const D = ORCH_DOMAIN;
const signal = new AbortController().signal;
const cm = (name: string, data: Record<string, string> = {}, labels?: Record<string, string>): ApiObject =>
  ({
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name, ...(labels ? { labels } : {}) },
    data,
  }) as ApiObject;

async function eventually<T>(what: string, check: () => T | undefined | false | Promise<T | undefined | false>) {
  const deadline = Date.now() + 15_000;
  for (;;) {
    const v = await check();
    if (v !== undefined && v !== false) return v;
    if (Date.now() > deadline) assert.fail(`timed out waiting until ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

describe('HttpApiClient against a real server', () => {
  let dataDir: string;
  let server: RunningServer;
  let config: RestConfig;
  let client: HttpApiClient;
  let cms: ResourceClient;
  const NS = 'client-test';

  before(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'orch-http-client-'));
    server = await startServer({ dataDir, securePort: 0, bindAddress: '127.0.0.1', runControllers: false });
    config = await loadKubeconfig(server.kubeconfigPath!);
    client = await HttpApiClient.connect({ config, domain: D, fieldManager: 'http-test', qps: -1 });
    cms = client.resource('', 'v1', 'configmaps')!;
    await client
      .resource('', 'v1', 'namespaces')!
      .create('', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: NS } }, signal);
  });
  after(async () => {
    client?.close();
    await server?.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('learns resources, versions, scopes, verbs and sub-resources from discovery', () => {
    const all = client.resources();
    const ns = all.find((r) => r.group === '' && r.resource === 'namespaces');
    assert.deepEqual(
      { kind: ns?.kind, namespaced: ns?.namespaced, subresources: [...(ns?.subresources ?? [])].sort() },
      { kind: 'Namespace', namespaced: false, subresources: ['finalize', 'status'] },
    );
    const sa = client.resource('', 'v1', 'serviceaccounts')!.resource;
    assert.equal(sa.namespaced, true);
    assert.ok(sa.subresources.includes('token'));
    assert.ok(sa.verbs.includes('deletecollection') && sa.verbs.includes('watch'));
    const rbac = D.group('rbac.authorization');
    assert.equal(client.preferred(rbac, 'clusterroles')?.resource.version, 'v1');
    assert.equal(client.forKind(rbac, 'ClusterRole')?.resource.resource, 'clusterroles');
    assert.equal(client.forKind('', 'ConfigMap')?.resource.resource, 'configmaps');
    assert.equal(client.resource('', 'v1', 'gadgets'), undefined);
    assert.equal(client.forKind('', 'Gadget'), undefined);
    // Sub-resources are not resources of their own.
    assert.equal(
      all.some((r) => r.resource.includes('/')),
      false,
    );
  });

  it('reads the same resources from the legacy discovery documents', async () => {
    const rest = new RestClient(config);
    try {
      const legacy = await discover(rest, D.discoveryGroup, signal, { legacy: true });
      const aggregated = await discover(rest, D.discoveryGroup, signal);
      const key = (r: ApiResource) => `${r.group}/${r.version}/${r.resource}`;
      const sorted = (rs: readonly ApiResource[]) =>
        [...rs]
          .map((r) => ({ ...r, verbs: [...r.verbs].sort(), subresources: [...r.subresources].sort() }))
          .sort((a, b) => (key(a) < key(b) ? -1 : 1));
      assert.ok(legacy.resources.length > 30);
      assert.deepEqual(sorted(legacy.resources), sorted(aggregated.resources));
      assert.deepEqual([...legacy.versions].sort(), [...aggregated.versions].sort());
    } finally {
      rest.close();
    }
  });

  it('creates, gets, lists (selectors, pages), updates with preconditions and deletes', async () => {
    const a = await cms.create(NS, cm('a', { k: '1' }, { app: 'x' }), signal);
    assert.equal(a.metadata.managedFields?.[0].manager, 'http-test');
    await cms.create(NS, cm('b', {}, { app: 'x' }), signal);
    await cms.create(NS, cm('c', {}, { app: 'y' }), signal);
    assert.deepEqual(((await cms.get(NS, 'a', signal)) as { data?: object }).data, { k: '1' });
    const selected = await cms.list(NS, { labelSelector: 'app=x' }, signal);
    assert.deepEqual(selected.items.map((o) => o.metadata.name).sort(), ['a', 'b']);
    assert.ok(selected.resourceVersion);
    assert.deepEqual(
      selected.items.map((o) => [o.apiVersion, o.kind]),
      [
        ['v1', 'ConfigMap'],
        ['v1', 'ConfigMap'],
      ],
    );
    const page1 = await cms.list(NS, { limit: 2 }, signal);
    assert.equal(page1.items.length, 2);
    assert.ok(page1.continue);
    const page2 = await cms.list(NS, { limit: 2, continue: page1.continue }, signal);
    assert.deepEqual(
      page2.items.map((o) => o.metadata.name),
      ['c'],
    );
    assert.equal(page2.continue, undefined);
    const byField = await cms.list(NS, { fieldSelector: 'metadata.name=c' }, signal);
    assert.deepEqual(
      byField.items.map((o) => o.metadata.name),
      ['c'],
    );

    const updated = await cms.update({ ...a, data: { k: '2' } } as ApiObject, signal);
    assert.notEqual(updated.metadata.resourceVersion, a.metadata.resourceVersion);
    const stale = await statusOf(cms.update({ ...a, data: { k: '3' } } as ApiObject, signal));
    assert.deepEqual([stale.code, stale.reason], [409, 'Conflict']);

    const wrongUid = await statusOf(cms.delete(NS, 'a', { preconditions: { uid: 'not-the-uid' } }, signal));
    assert.equal(wrongUid.code, 409);
    await cms.delete(NS, 'a', { preconditions: { uid: a.metadata.uid } }, signal);
    const gone = await statusOf(cms.get(NS, 'a', signal));
    assert.deepEqual([gone.code, gone.reason, gone.message], [404, 'NotFound', 'configmaps "a" not found']);

    await cms.deleteCollection(NS, { labelSelector: 'app=x' }, signal);
    assert.deepEqual(
      (await cms.list(NS, {}, signal)).items.map((o) => o.metadata.name),
      ['c'],
    );
    await cms.deleteCollection(NS, {}, signal);
    assert.deepEqual((await cms.list(NS, {}, signal)).items, []);
  });

  it('patches with JSON, merge and strategic merge patches, and on a sub-resource', async () => {
    await cms.create(NS, cm('p', { a: '1' }), signal);
    const merged = (await cms.patch(NS, 'p', 'merge', { data: { b: '2' } }, signal)) as ApiObject & { data: object };
    assert.deepEqual(merged.data, { a: '1', b: '2' });
    const json = (await cms.patch(NS, 'p', 'json', [{ op: 'remove', path: '/data/a' }], signal)) as ApiObject & {
      data: object;
    };
    assert.deepEqual(json.data, { b: '2' });
    const smp = (await cms.patch(NS, 'p', 'strategic', { metadata: { labels: { s: 't' } } }, signal)) as ApiObject;
    assert.deepEqual(smp.metadata.labels, { s: 't' });
    const bad = await statusOf(cms.patch(NS, 'p', 'json', [{ op: 'remove', path: '/nope' }], signal));
    assert.equal(bad.code, 422);
    const nss = client.resource('', 'v1', 'namespaces')!;
    const ns = await nss.patch('', NS, 'merge', { status: { phase: 'Active' } }, signal, { subresource: 'status' });
    assert.equal((ns as { status?: { phase?: string } }).status?.phase, 'Active');
  });

  it('applies server-side as its field manager, with conflicts unless forced', async () => {
    const applied = await cms.apply(NS, 'ap', cm('ap', { owner: 'me' }), signal, { force: false });
    const entry = applied.metadata.managedFields?.find((m) => m.manager === 'http-test');
    assert.equal(entry?.operation, 'Apply');
    const other = await HttpApiClient.connect({ config, domain: D, fieldManager: 'other-manager', qps: -1 });
    try {
      const ocms = other.resource('', 'v1', 'configmaps')!;
      const conflict = await statusOf(ocms.apply(NS, 'ap', cm('ap', { owner: 'you' }), signal, { force: false }));
      assert.equal(conflict.code, 409);
      assert.match(conflict.message, /conflict/i);
      const forced = (await ocms.apply(NS, 'ap', cm('ap', { owner: 'you' }), signal, { force: true })) as ApiObject & {
        data: object;
      };
      assert.deepEqual(forced.data, { owner: 'you' });
      assert.ok(forced.metadata.managedFields?.some((m) => m.manager === 'other-manager'));
    } finally {
      other.close();
    }
  });

  it('creates through a sub-resource (serviceaccounts/<name>/token)', async () => {
    const sas = client.resource('', 'v1', 'serviceaccounts')!;
    await sas.create(NS, { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'robot' } }, signal);
    const tr = (await sas.create(
      NS,
      {
        apiVersion: `${D.group('authentication')}/v1`,
        kind: 'TokenRequest',
        spec: { expirationSeconds: 3600 },
      } as never,
      signal,
      { subresource: 'token', name: 'robot' },
    )) as ApiObject & { status?: { token?: string; expirationTimestamp?: string } };
    assert.equal(tr.kind, 'TokenRequest');
    assert.ok(tr.status?.token && tr.status.expirationTimestamp);
  });

  it('watches: events from a resourceVersion, the server ending the stream, stop() and the signal', async () => {
    const list = await cms.list(NS, {}, signal);
    const w = await cms.watch(NS, { resourceVersion: list.resourceVersion, allowWatchBookmarks: true }, signal);
    const seen: ClientWatchEvent[] = [];
    const reading = (async () => {
      for await (const ev of w) {
        if (ev.type === 'BOOKMARK') continue;
        seen.push(ev);
        if (seen.length === 3) w.stop();
      }
    })();
    await cms.create(NS, cm('w', { v: '1' }), signal);
    await cms.patch(NS, 'w', 'merge', { data: { v: '2' } }, signal);
    await cms.delete(NS, 'w', {}, signal);
    await reading;
    assert.deepEqual(
      seen.map((e) => [e.type, e.object.kind, e.object.metadata.name]),
      [
        ['ADDED', 'ConfigMap', 'w'],
        ['MODIFIED', 'ConfigMap', 'w'],
        ['DELETED', 'ConfigMap', 'w'],
      ],
    );
    // Resuming from the first event's resourceVersion replays what followed it.
    const resumed = await cms.watch(NS, { resourceVersion: seen[0].object.metadata.resourceVersion }, signal);
    const replay: string[] = [];
    for await (const ev of resumed) {
      replay.push(ev.type);
      if (replay.length === 2) resumed.stop();
    }
    assert.deepEqual(replay, ['MODIFIED', 'DELETED']);

    const started = Date.now();
    const timed = await cms.watch(NS, { resourceVersion: list.resourceVersion, timeoutSeconds: 1 }, signal);
    const types: string[] = [];
    for await (const ev of timed) types.push(ev.type);
    assert.ok(Date.now() - started >= 900, 'the stream ends when the server ends it');
    assert.deepEqual(types, ['ADDED', 'MODIFIED', 'DELETED']);

    const abort = new AbortController();
    const aborted = await cms.watch(NS, {}, abort.signal);
    const ended = (async () => {
      for await (const _ of aborted) {
        // Nothing arrives.
      }
    })();
    setTimeout(() => abort.abort(), 50);
    await ended;
  });

  it('a watch from a compacted resourceVersion fails with 410 Expired', async () => {
    const first = await cms.create(NS, cm('old'), signal);
    for (let i = 0; i < 3; i++) await cms.patch(NS, 'old', 'merge', { data: { i: String(i) } }, signal);
    const latest = await cms.get(NS, 'old', signal);
    await server.store.compact(BigInt(latest.metadata.resourceVersion!));
    let status: unknown;
    try {
      const w = await cms.watch(NS, { resourceVersion: first.metadata.resourceVersion }, signal);
      for await (const ev of w) {
        if (ev.type === 'ERROR') {
          status = ev.object;
          w.stop();
        }
      }
    } catch (e) {
      status = e instanceof StatusError ? e.toStatus() : e;
    }
    assert.equal((status as { code?: number }).code, 410, JSON.stringify(status));
  });

  it('reports resources added and removed (a CRD) to subscribers by polling discovery', async () => {
    const polled = await HttpApiClient.connect({
      config,
      domain: D,
      fieldManager: 'poller',
      qps: -1,
      discoveryPeriodMs: 100,
    });
    try {
      const changes: ApiResourceChange[] = [];
      const unsubscribe = polled.subscribe((c) => changes.push(c));
      const crds = client.resource(D.group('apiextensions'), 'v1', 'customresourcedefinitions')!;
      await crds.create(
        '',
        {
          apiVersion: `${D.group('apiextensions')}/v1`,
          kind: 'CustomResourceDefinition',
          metadata: { name: 'gizmos.example.com' },
          spec: {
            group: 'example.com',
            names: { plural: 'gizmos', singular: 'gizmo', kind: 'Gizmo', listKind: 'GizmoList' },
            scope: 'Namespaced',
            versions: [
              {
                name: 'v1',
                served: true,
                storage: true,
                schema: { openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } },
                subresources: { status: {} },
              },
            ],
          },
        } as ApiObject,
        signal,
      );
      const added = await eventually('the gizmos resource is reported', () =>
        changes.find((c) => c.type === 'added' && c.resource.resource === 'gizmos'),
      );
      assert.deepEqual(
        { ...added.resource, verbs: [...added.resource.verbs].sort() },
        {
          group: 'example.com',
          version: 'v1',
          resource: 'gizmos',
          kind: 'Gizmo',
          namespaced: true,
          verbs: ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'],
          subresources: ['status'],
        },
      );
      const gizmos = await eventually('the client serves gizmos', () => polled.forKind('example.com', 'Gizmo'));
      await eventually('a gizmo can be created', () =>
        gizmos
          .create(NS, { apiVersion: 'example.com/v1', kind: 'Gizmo', metadata: { name: 'g' } } as ApiObject, signal)
          .then(
            () => true,
            () => false,
          ),
      );
      await crds.delete('', 'gizmos.example.com', {}, signal);
      await eventually('the gizmos resource is reported removed', () =>
        changes.some((c) => c.type === 'removed' && c.resource.resource === 'gizmos'),
      );
      assert.equal(polled.resource('example.com', 'v1', 'gizmos'), undefined);
      unsubscribe();
    } finally {
      polled.close();
    }
  });

  it('limits its request rate with a token bucket (qps, burst)', async () => {
    const limited = await HttpApiClient.connect({ config, domain: D, fieldManager: 'slow', qps: 10, burst: 2 });
    try {
      const c = limited.resource('', 'v1', 'configmaps')!;
      // Discovery took 2 tokens; the bucket refills while we wait a little.
      await new Promise((r) => setTimeout(r, 300));
      const started = performance.now();
      await Promise.all(Array.from({ length: 7 }, () => c.list(NS, {}, signal)));
      const took = performance.now() - started;
      // 2 at once from the burst, then 5 more at 10 per second: at least ~500 ms.
      assert.ok(took >= 450, `7 requests at qps 10, burst 2 took ${took} ms`);
      assert.ok(took < 3000, `took ${took} ms`);
    } finally {
      limited.close();
    }
    const unlimited = await HttpApiClient.connect({ config, domain: D, fieldManager: 'fast', qps: -1 });
    try {
      const c = unlimited.resource('', 'v1', 'configmaps')!;
      const started = performance.now();
      await Promise.all(Array.from({ length: 7 }, () => c.list(NS, {}, signal)));
      assert.ok(performance.now() - started < 450, 'qps < 0: no limit');
    } finally {
      unlimited.close();
    }
  });

  it('speaks JSON whatever content types are configured', async () => {
    const proto = await HttpApiClient.connect({
      config,
      domain: D,
      fieldManager: 'proto',
      qps: -1,
      contentType: 'application/vnd.kubernetes.protobuf',
      acceptContentTypes: 'application/vnd.kubernetes.protobuf,application/json',
    });
    try {
      const got = await proto.resource('', 'v1', 'namespaces')!.get('', NS, signal);
      assert.equal(got.metadata.name, NS);
    } finally {
      proto.close();
    }
  });
});

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ORCH_DOMAIN } from '../apis/api-domain.js';
import { StatusError } from '../apis/meta/status.js';
import type { ApiObject } from '../apis/object.js';
import { alwaysAllow, alwaysDeny } from '../authz/index.js';
import { SharedInformerSet } from '../client/informer/shared-informer-set.js';
import { registryFixture } from '../registry/resource-set/testing/registry-fixture.js';
import { silentLogger } from '../util/logger.js';
import { controllerIdentity } from './controller-client.js';
import { InProcessApiClient } from './in-process-api-client.js';
import { waitFor } from './testing/controller-fixture.js';
import { runDescriptors } from './testing/run-descriptor.js';

const cm = (name: string, data: Record<string, string> = {}): ApiObject => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name },
  data,
});

describe('InProcessApiClient', () => {
  it('reads and writes through the registries as its identity, and informers follow', async () => {
    const f = await registryFixture();
    await f.createNamespace('ns');
    const api = new InProcessApiClient(f.resources, controllerIdentity('test-controller', ORCH_DOMAIN), alwaysAllow);
    const signal = new AbortController();
    const informers = new SharedInformerSet(api, { logger: silentLogger, signal: signal.signal });
    informers.start();
    try {
      const cms = api.preferred('', 'configmaps');
      assert.ok(cms);
      assert.equal(api.forKind('', 'ConfigMap')?.resource.resource, 'configmaps');
      assert.equal(api.forKind('apps', 'Deployment')?.resource.resource, 'deployments');
      const created = await cms.create('ns', cm('a', { k: 'v' }), signal.signal);
      assert.equal(created.metadata.managedFields?.[0]?.manager, 'test-controller');
      const informer = informers.lookup('', 'configmaps');
      assert.ok(informer);
      await waitFor('informer add', () => informer.get('ns', 'a'));

      const stale = structuredClone(created);
      const merged = await cms.patch('ns', 'a', 'merge', { data: { k: 'w' } }, signal.signal);
      assert.deepEqual((merged as { data?: unknown }).data, { k: 'w' });
      await assert.rejects(
        cms.update(stale, signal.signal),
        (e: unknown) => e instanceof StatusError && e.code === 409,
      );
      const applied = await cms.apply('ns', 'b', cm('b', { x: 'y' }), signal.signal, { force: true });
      assert.equal(applied.metadata.name, 'b');
      const list = await cms.list('ns', {}, signal.signal);
      assert.deepEqual(list.items.map((o) => o.metadata.name).sort(), ['a', 'b']);
      await cms.delete('ns', 'a', {}, signal.signal);
      await waitFor('informer delete', () => informer.get('ns', 'a') === undefined);
      await cms.deleteCollection('ns', {}, signal.signal);
      assert.equal((await cms.list('ns', {}, signal.signal)).items.length, 0);
      await assert.rejects(
        cms.get('ns', 'b', signal.signal),
        (e: unknown) => e instanceof StatusError && e.code === 404,
      );
    } finally {
      signal.abort();
      await informers.stopped();
    }
  });

  it('is refused like an HTTP client when the authorizer says no', async () => {
    const f = await registryFixture();
    const api = new InProcessApiClient(f.resources, controllerIdentity('test-controller', ORCH_DOMAIN), alwaysDeny);
    await assert.rejects(
      api.preferred('', 'configmaps')!.list('', {}, new AbortController().signal),
      (e: unknown) => e instanceof StatusError && e.code === 403,
    );
  });
});

describe('runDescriptors', () => {
  it('runs a controller as its service account over shared informers', async () => {
    const f = await registryFixture();
    const running = runDescriptors(f.resources, [
      {
        name: 'marker',
        serviceAccount: 'marker-controller',
        enabledByDefault: true,
        async run(ctx) {
          const namespaces = ctx.informers.lookup('', 'namespaces');
          const cms = ctx.client.preferred('', 'configmaps');
          assert.ok(namespaces && cms);
          namespaces.addHandlers({
            onAdd: (ns) => {
              cms.create(ns.metadata.name ?? '', cm('marker'), ctx.signal).catch(() => {});
            },
          });
          await new Promise((resolve) => ctx.signal.addEventListener('abort', resolve, { once: true }));
        },
      },
    ]);
    try {
      await f.createNamespace('m1');
      const marker = await waitFor('marker', () => f.registry('configmaps').get(f.ctx('m1'), 'marker', {}));
      assert.equal(marker.metadata.managedFields?.[0]?.manager, 'marker-controller');
    } finally {
      await running.stop();
    }
  });
});

import assert from 'node:assert/strict';
import { getEventListeners } from 'node:events';
import { describe, it } from 'node:test';
import { ORCH_DOMAIN } from '../apis/api-domain.js';
import { alwaysAllow } from '../authz/index.js';
import { SharedInformerSet } from '../client/informer/shared-informer-set.js';
import { registryFixture } from '../registry/resource-set/testing/registry-fixture.js';
import { silentLogger } from '../util/logger.js';
import { controllerIdentity } from './controller-client.js';
import { InProcessApiClient } from './in-process-api-client.js';

describe('SharedInformerSet', () => {
  it('keeps one abort listener per informer on its signal, and takes a removed resource’s away', async () => {
    const f = await registryFixture();
    const api = new InProcessApiClient(f.resources, controllerIdentity('test-controller', ORCH_DOMAIN), alwaysAllow);
    const lifetime = new AbortController();
    const informers = new SharedInformerSet(api, { logger: silentLogger, signal: lifetime.signal });
    try {
      const listeners = () => getEventListeners(lifetime.signal, 'abort').length;
      const before = listeners();
      // Many informers on one signal are by design: Node must not call it a leak.
      assert.ok(informers.all().length > 10);
      assert.ok(informers.lookup('', 'configmaps'));
      assert.equal(f.resources.remove('', 'v1', 'configmaps'), true);
      assert.equal(informers.lookup('', 'configmaps'), undefined);
      assert.equal(listeners(), before - 1);
    } finally {
      lifetime.abort();
    }
  });
});

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ORCH_DOMAIN } from '../apis/api-domain.js';
import { registryFixture } from '../registry/resource-set/testing/registry-fixture.js';
import { silentLogger } from '../util/logger.js';
import { ensureLegacyTokenTracking, legacyTokenTrackingConfigMap } from './legacy-token-tracking.js';

describe('legacy token tracking ConfigMap', () => {
  it('is created with today, kept while valid, and rewritten when its date is not one', async () => {
    const f = await registryFixture();
    await f.createNamespace(ORCH_DOMAIN.systemNamespace);
    const name = legacyTokenTrackingConfigMap(ORCH_DOMAIN);
    assert.equal(name, 'orch-apiserver-legacy-service-account-token-tracking');
    const signal = new AbortController().signal;
    const at = (iso: string) => ({ signal, logger: silentLogger, clock: { now: () => new Date(iso) } });
    const since = async () => {
      const cm = await f.registry('configmaps').get(f.ctx(ORCH_DOMAIN.systemNamespace), name, {});
      return (cm.data as Record<string, string>).since;
    };
    assert.equal(await ensureLegacyTokenTracking(f.resources, ORCH_DOMAIN, at('2025-03-04T23:59:59Z')), 'created');
    assert.equal(await since(), '2025-03-04');
    assert.equal(await ensureLegacyTokenTracking(f.resources, ORCH_DOMAIN, at('2025-05-01T00:00:00Z')), 'unchanged');
    assert.equal(await since(), '2025-03-04');
    await f
      .registry('configmaps')
      .update(
        f.ctx(ORCH_DOMAIN.systemNamespace),
        name,
        { retryOnConflict: true, compute: (live) => ({ ...live!, data: { since: 'yesterday' } }) },
        { dryRun: false },
      );
    assert.equal(await ensureLegacyTokenTracking(f.resources, ORCH_DOMAIN, at('2025-05-01T00:00:00Z')), 'updated');
    assert.equal(await since(), '2025-05-01');
  });
});

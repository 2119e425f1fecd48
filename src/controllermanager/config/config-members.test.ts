import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { apiDomain } from '../../apis/api-domain.js';
import { configMembersOf, durationMs, genericTimings } from './config-members.js';
import { defaultControllerManagerConfiguration } from './defaults.js';

describe('configuration members for the run loop', () => {
  const c = defaultControllerManagerConfiguration(apiDomain('orch.io'));

  it('maps member names to their objects (not apiVersion/kind)', () => {
    const m = configMembersOf(c);
    assert.deepEqual(m.DeploymentController, { ConcurrentDeploymentSyncs: 5 });
    assert.deepEqual(m.NamespaceController, { NamespaceSyncPeriod: '5m0s', ConcurrentNamespaceSyncs: 10 });
    assert.equal('apiVersion' in m, false);
    assert.equal('kind' in m, false);
  });

  it('reads Generic’s durations in milliseconds', () => {
    assert.deepEqual(genericTimings(c.Generic), { minResyncPeriodMs: 12 * 3_600_000, controllerStartIntervalMs: 0 });
    assert.equal(durationMs('1m30s'), 90_000);
    assert.equal(durationMs('1.5ms'), 1);
  });
});

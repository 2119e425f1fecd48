import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { configDurationMs, configNumber } from './controller-descriptor.js';

describe('controller configuration members', () => {
  it('reads numbers and Go durations, falling back to the default when unset', () => {
    const config = { ConcurrentDeploymentSyncs: 7, CleanUpPeriod: '8760h0m0s', Bad: 'soon' };
    assert.equal(configNumber(config, 'ConcurrentDeploymentSyncs', 5), 7);
    assert.equal(configNumber({}, 'ConcurrentDeploymentSyncs', 5), 5);
    assert.equal(configDurationMs(config, 'CleanUpPeriod', 0), 8760 * 3600_000);
    assert.equal(configDurationMs(config, 'Bad', 1000), 1000);
    assert.equal(configDurationMs({}, 'CleanUpPeriod', 42), 42);
  });
});

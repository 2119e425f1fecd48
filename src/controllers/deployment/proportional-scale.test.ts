import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ORCH_DOMAIN } from '../../apis/api-domain.js';
import type { Deployment, ReplicaSet } from './deployment-types.js';
import { deploymentNames } from './deployment-util.js';
import { scaleDeployment } from './proportional-scale.js';

const names = deploymentNames(ORCH_DOMAIN);

function rs(name: string, replicas: number, created: string, max: number, available = 0): ReplicaSet {
  return {
    apiVersion: 'apps/v1',
    kind: 'ReplicaSet',
    metadata: {
      name,
      creationTimestamp: created,
      annotations: { [names.desiredReplicas]: '10', [names.maxReplicas]: String(max) },
    },
    spec: { replicas },
    status: { availableReplicas: available },
  };
}

function deployment(replicas: number): Deployment {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'd' },
    spec: { replicas, strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: '25%', maxUnavailable: '25%' } } },
  };
}

async function scaled(d: Deployment, newRS: ReplicaSet | undefined, old: ReplicaSet[]) {
  const sizes: Record<string, number> = {};
  await scaleDeployment(d, newRS, old, {
    names,
    scale: async (r, n) => {
      sizes[r.metadata.name ?? ''] = n;
      return { ...r, spec: { ...r.spec, replicas: n } };
    },
  });
  return sizes;
}

describe('proportional scaling', () => {
  it('spreads a scale-up mid-rollout over the active ReplicaSets by their share', async () => {
    // 10 replicas + 25% surge = 13 were allowed; 20 + 5 = 25 now: 12 to add.
    const sizes = await scaled(deployment(20), rs('new', 6, '2026-01-02T00:00:00Z', 13), [
      rs('old', 7, '2026-01-01T00:00:00Z', 13),
    ]);
    assert.deepEqual(sizes, { old: 13, new: 12 });
  });

  it('spreads a scale-down in proportion', async () => {
    const sizes = await scaled(deployment(5), rs('new', 6, '2026-01-02T00:00:00Z', 13), [
      rs('old', 7, '2026-01-01T00:00:00Z', 13),
    ]);
    // 5 + 2 = 7 allowed, 13 running: 6 to remove, in proportion.
    assert.equal(sizes.old + sizes.new, 7);
    assert.deepEqual(sizes, { old: 4, new: 3 });
  });

  it('gives all replicas to the only active ReplicaSet', async () => {
    const sizes = await scaled(deployment(3), rs('new', 10, '2026-01-02T00:00:00Z', 13), [
      rs('old', 0, '2026-01-01T00:00:00Z', 13),
    ]);
    assert.deepEqual(sizes, { new: 3 });
  });
});

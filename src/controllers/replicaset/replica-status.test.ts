import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Pod } from '../../apis/core/pod-types.js';
import { formatTime } from '../../util/clock.js';
import { calculateReplicaStatus, type ReplicaOwner, replicaStatusChanged } from './replica-status.js';

const now = new Date('2026-01-01T00:01:00Z');

function pod(labels: Record<string, string>, ready?: string): Pod {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: 'p', labels },
    status: ready ? { conditions: [{ type: 'Ready', status: 'True', lastTransitionTime: ready }] } : {},
  };
}

function owner(status: ReplicaOwner['status'] = {}, minReadySeconds = 0): ReplicaOwner {
  return {
    apiVersion: 'apps/v1',
    kind: 'ReplicaSet',
    metadata: { name: 'rs', generation: 2 },
    spec: { replicas: 3, minReadySeconds, template: { metadata: { labels: { app: 'a', tier: 't' } } } },
    status,
  };
}

describe('ReplicaSet status', () => {
  const cases: { name: string; owner: ReplicaOwner; pods: Pod[]; error?: unknown; want: object }[] = [
    {
      name: 'counts fully labeled, ready and available pods; zero counts omitted',
      owner: owner(),
      pods: [pod({ app: 'a' }), pod({ app: 'a', tier: 't' }, '2026-01-01T00:00:00Z')],
      want: { replicas: 2, fullyLabeledReplicas: 1, readyReplicas: 1, availableReplicas: 1 },
    },
    {
      name: 'minReadySeconds: ready pods become available only after it',
      owner: owner({}, 30),
      pods: [
        pod({ app: 'a', tier: 't' }, '2026-01-01T00:00:00Z'),
        pod({ app: 'a', tier: 't' }, '2026-01-01T00:00:45Z'),
      ],
      want: { replicas: 2, fullyLabeledReplicas: 2, readyReplicas: 2, availableReplicas: 1 },
    },
    {
      name: 'a create error sets ReplicaFailure FailedCreate with the message',
      owner: owner(),
      pods: [],
      error: new Error('pods "rs-" is forbidden: exceeded quota'),
      want: {
        replicas: 0,
        conditions: [
          {
            type: 'ReplicaFailure',
            status: 'True',
            lastTransitionTime: formatTime(now),
            reason: 'FailedCreate',
            message: 'pods "rs-" is forbidden: exceeded quota',
          },
        ],
      },
    },
    {
      name: 'success removes ReplicaFailure',
      owner: owner({ replicas: 0, conditions: [{ type: 'ReplicaFailure', status: 'True', reason: 'FailedCreate' }] }),
      pods: [],
      want: { replicas: 0 },
    },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const got = calculateReplicaStatus(c.owner, c.pods, { manageError: c.error, creating: true, now, formatTime });
      assert.deepEqual(got, c.want);
    });
  }

  it('is written when counts change or observedGeneration lags', () => {
    assert.equal(replicaStatusChanged(owner({ replicas: 1, observedGeneration: 2 }), { replicas: 1 }), false);
    assert.equal(replicaStatusChanged(owner({ replicas: 1, observedGeneration: 1 }), { replicas: 1 }), true);
    assert.equal(replicaStatusChanged(owner({ replicas: 1, observedGeneration: 2 }), { replicas: 2 }), true);
  });
});

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { apiDomain, ORCH_DOMAIN } from '../../apis/api-domain.js';
import type { Deployment, ReplicaSet } from './deployment-types.js';
import {
  deploymentNames,
  equalIgnoreHash,
  maxSurge,
  maxUnavailable,
  resolveFenceposts,
  scaledValue,
} from './deployment-util.js';
import { podTemplateHash } from './pod-template-hash.js';
import { setNewReplicaSetAnnotations } from './revision-annotations.js';

function deployment(
  replicas: number,
  surge?: number | string,
  unavailable?: number | string,
  type = 'RollingUpdate',
): Deployment {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'd', annotations: { note: 'x' } },
    spec: {
      replicas,
      strategy: {
        type,
        ...(type === 'RollingUpdate' ? { rollingUpdate: { maxSurge: surge, maxUnavailable: unavailable } } : {}),
      },
    },
  };
}

describe('deployment arithmetic', () => {
  const cases: [string, number, number | string, number | string, number, number][] = [
    ['percentages: surge rounds up, unavailable down', 10, '25%', '25%', 3, 2],
    ['one replica with 25%', 1, '25%', '25%', 1, 0],
    ['integers', 5, 2, 1, 2, 1],
    ['both zero after rounding: unavailable 1', 3, '0%', '10%', 0, 1],
  ];
  for (const [name, replicas, surge, unavailable, wantSurge, wantUnavailable] of cases) {
    it(name, () => {
      assert.deepEqual(resolveFenceposts(deployment(replicas, surge, unavailable)), {
        surge: wantSurge,
        unavailable: wantUnavailable,
      });
    });
  }

  it('Recreate has no surge and no unavailability; maxUnavailable is capped at replicas', () => {
    assert.equal(maxSurge(deployment(3, 0, 0, 'Recreate')), 0);
    assert.equal(maxUnavailable(deployment(3, 0, 0, 'Recreate')), 0);
    assert.equal(maxUnavailable(deployment(2, 0, 5)), 2);
    assert.equal(maxUnavailable(deployment(0, 1, 1)), 0);
    assert.equal(scaledValue('50%', 5, true), 3);
    assert.equal(scaledValue('50%', 5, false), 2);
  });

  it('hashes templates to kube-shaped labels, changed by the collision count', () => {
    const t = { metadata: { labels: { app: 'a' } }, spec: { containers: [{ name: 'c', image: 'i' }] } };
    const h = podTemplateHash(t);
    assert.match(h, /^[bcdfghjklmnpqrstvwxz2456789]{6,10}$/);
    assert.equal(podTemplateHash(structuredClone(t)), h);
    assert.notEqual(podTemplateHash(t, 1), h);
    assert.notEqual(podTemplateHash({ ...t, spec: { containers: [{ name: 'c', image: 'j' }] } }), h);
  });

  it('compares templates ignoring the hash label and empty values', () => {
    const a = {
      metadata: { labels: { app: 'a', 'pod-template-hash': 'xyz' } },
      spec: { containers: [{ name: 'c' }], volumes: [] },
    };
    assert.ok(equalIgnoreHash(a, { metadata: { labels: { app: 'a' } }, spec: { containers: [{ name: 'c' }] } }));
    assert.ok(!equalIgnoreHash(a, { metadata: { labels: { app: 'b' } }, spec: { containers: [{ name: 'c' }] } }));
  });

  it("names the annotations after the domain: kube's under k8s.io", () => {
    const kube = deploymentNames(apiDomain('k8s.io'));
    assert.equal(kube.revision, 'deployment.kubernetes.io/revision');
    assert.equal(kube.desiredReplicas, 'deployment.kubernetes.io/desired-replicas');
    assert.equal(kube.maxReplicas, 'deployment.kubernetes.io/max-replicas');
    assert.ok(kube.skipCopy.has('kubectl.kubernetes.io/last-applied-configuration'));
    assert.equal(deploymentNames(ORCH_DOMAIN).revision, `deployment.${ORCH_DOMAIN.name}/revision`);
  });

  it('raises a reused ReplicaSet to the new revision and keeps the old one in the history', () => {
    const names = deploymentNames(apiDomain('k8s.io'));
    const rs: ReplicaSet = {
      apiVersion: 'apps/v1',
      kind: 'ReplicaSet',
      metadata: { name: 'r', annotations: { [names.revision]: '1', [names.revisionHistory]: '0' } },
      spec: {},
    };
    assert.ok(setNewReplicaSetAnnotations(deployment(2, 1, 1), rs, 3, true, names));
    assert.deepEqual(rs.metadata.annotations, {
      [names.revision]: '3',
      [names.revisionHistory]: '0,1',
      note: 'x',
    });
    const fresh: ReplicaSet = { apiVersion: 'apps/v1', kind: 'ReplicaSet', metadata: { name: 'n' }, spec: {} };
    setNewReplicaSetAnnotations(deployment(4, '25%', '25%'), fresh, 1, false, names);
    assert.deepEqual(fresh.metadata.annotations, {
      note: 'x',
      [names.revision]: '1',
      [names.desiredReplicas]: '4',
      [names.maxReplicas]: '5',
    });
  });
});

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { selectorString } from '../apps/workload-columns.js';
import { StatusError } from '../meta/status.js';
import type { ApiObject } from '../object.js';
import { scaleSubresource } from './scale-subresource.js';

const scale = scaleSubresource(
  { type: 'object' },
  {
    group: 'apps',
    resource: 'deployments',
    selector: (parent) => selectorString((parent.spec as { selector?: unknown }).selector),
  },
);

const deployment = (): ApiObject => ({
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: {
    name: 'web',
    namespace: 'default',
    uid: 'u1',
    resourceVersion: '7',
    creationTimestamp: '2024-01-01T00:00:00Z',
    labels: { a: 'b' },
  },
  spec: {
    replicas: 3,
    selector: { matchLabels: { app: 'web' }, matchExpressions: [{ key: 'tier', operator: 'NotIn', values: ['db'] }] },
  },
  status: { replicas: 2 },
});

describe('the scale sub-resource', () => {
  it('reads replicas and the selector string of the parent', () => {
    assert.deepEqual(scale.verbs, ['get', 'patch', 'update']);
    assert.deepEqual(scale.kind?.toSubresource(deployment()), {
      apiVersion: 'autoscaling/v1',
      kind: 'Scale',
      metadata: {
        name: 'web',
        namespace: 'default',
        uid: 'u1',
        resourceVersion: '7',
        creationTimestamp: '2024-01-01T00:00:00Z',
      },
      spec: { replicas: 3 },
      status: { replicas: 2, selector: 'app=web,tier notin (db)' },
    });
    const idle = deployment();
    (idle.spec as Record<string, unknown>).replicas = 0;
    delete idle.status;
    const s = scale.kind?.toSubresource(idle);
    assert.deepEqual([s?.spec, s?.status], [{}, { replicas: 0, selector: 'app=web,tier notin (db)' }]);
  });

  it('writes replicas back, validating the Scale', () => {
    const parent = scale.kind?.toParent(deployment(), {
      apiVersion: 'autoscaling/v1',
      kind: 'Scale',
      metadata: { name: 'web' },
      spec: { replicas: 5 },
    }) as ApiObject;
    assert.equal((parent.spec as { replicas: number }).replicas, 5);
    assert.deepEqual(
      (parent.spec as { selector: unknown }).selector,
      deployment().spec && (deployment().spec as { selector: unknown }).selector,
    );
    const errs = scale.kind?.toParent(deployment(), {
      apiVersion: 'autoscaling/v1',
      kind: 'Scale',
      metadata: { name: 'web' },
      spec: { replicas: -2 },
    });
    assert.deepEqual(errs, [
      {
        type: 'FieldValueInvalid',
        field: 'spec.replicas',
        message: 'Invalid value: -2: must be greater than or equal to 0',
      },
    ]);
  });

  it('refuses a Scale naming another uid with 409', () => {
    assert.throws(
      () =>
        scale.kind?.toParent(deployment(), {
          apiVersion: 'autoscaling/v1',
          kind: 'Scale',
          metadata: { name: 'web', uid: 'u2' },
          spec: {},
        }),
      (e: unknown) =>
        e instanceof StatusError &&
        e.code === 409 &&
        e.message ===
          'Operation cannot be fulfilled on deployments/scale.apps "web": Precondition failed: UID in precondition: u2, UID in object meta: u1',
    );
  });
});

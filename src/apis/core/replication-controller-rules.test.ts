import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { BASIC_POD_TEMPLATE_RULES as POD } from '../apps/pod-template-rules.js';
import { formatFieldError } from '../meta/field-error.js';
import {
  defaultReplicationController,
  type ReplicationController,
  replicationControllerFieldLabels,
  replicationControllerSelector,
  replicationControllerTableColumns,
  validateReplicationControllerSpec,
} from './replication-controller-rules.js';

const rc = (spec: Record<string, unknown>, labels?: Record<string, string>): ReplicationController => ({
  apiVersion: 'v1',
  kind: 'ReplicationController',
  metadata: {
    name: 'rc',
    namespace: 'default',
    creationTimestamp: '2024-01-01T00:00:00Z',
    ...(labels ? { labels } : {}),
  },
  spec,
});

describe('ReplicationController', () => {
  it('defaults the selector and labels from the template, and one replica', () => {
    const r = rc({
      template: { metadata: { labels: { app: 'x', tier: 'web' } }, spec: { containers: [{ name: 'c', image: 'i' }] } },
    });
    defaultReplicationController(r, POD);
    assert.deepEqual(r.spec?.selector, { app: 'x', tier: 'web' });
    assert.deepEqual(r.metadata.labels, { app: 'x', tier: 'web' });
    assert.equal(r.spec?.replicas, 1);
    assert.equal(replicationControllerSelector(r), 'app=x,tier=web');
    assert.deepEqual(validateReplicationControllerSpec(r, POD), []);
    const kept = rc(
      { selector: { app: 'x' }, template: { metadata: { labels: { app: 'x', v: '1' } } } },
      { team: 'a' },
    );
    defaultReplicationController(kept, POD);
    assert.deepEqual([kept.spec?.selector, kept.metadata.labels], [{ app: 'x' }, { team: 'a' }]);
  });

  it('needs a selector and a template, and reports template problems', () => {
    assert.deepEqual(validateReplicationControllerSpec(rc({ replicas: -1 }), POD).map(formatFieldError), [
      'spec.selector: Required value',
      'spec.replicas: Invalid value: -1: must be greater than or equal to 0',
      'spec.template: Required value',
    ]);
    const r = rc({
      selector: { app: 'y' },
      replicas: 2,
      template: {
        metadata: { labels: { app: 'x' } },
        spec: {
          restartPolicy: 'OnFailure',
          activeDeadlineSeconds: 5,
          volumes: [{ name: 'd', gcePersistentDisk: { pdName: 'p' } }],
        },
      },
    });
    assert.deepEqual(validateReplicationControllerSpec(r, POD).map(formatFieldError), [
      'spec.template.metadata.labels: Invalid value: map[string]string{"app":"x"}: `selector` does not match template `labels`',
      'spec.template.spec.volumes[0].gcePersistentDisk.readOnly: Invalid value: false: must be true for replicated pods > 1; GCE PD can only be mounted on multiple machines if it is read-only',
      'spec.template.spec.restartPolicy: Unsupported value: "OnFailure": supported values: "Always"',
      'spec.template.spec.activeDeadlineSeconds: Invalid value: 5: must not be specified',
    ]);
  });

  it('selects on status.replicas and prints kube columns', () => {
    const r = rc({
      replicas: 3,
      selector: { app: 'x' },
      template: { spec: { containers: [{ name: 'c', image: 'i' }] } },
    });
    r.status = { replicas: 2, readyReplicas: 1 };
    assert.deepEqual(replicationControllerFieldLabels.fieldSet(r), {
      'metadata.name': 'rc',
      'metadata.namespace': 'default',
      'status.replicas': '2',
    });
    assert.equal(replicationControllerFieldLabels.unsupportedMessage('spec.x'), 'field label not supported: spec.x');
    assert.deepEqual(replicationControllerTableColumns().cells(r, new Date('2024-01-01T00:00:10Z')), [
      'rc',
      3,
      2,
      1,
      '10s',
      'c',
      'i',
      'app=x',
    ]);
  });
});

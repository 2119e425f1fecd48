import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { type FieldError, formatFieldError } from '../meta/field-error.js';
import {
  controllerRevisionTableColumns,
  daemonSetTableColumns,
  deploymentTableColumns,
  replicaSetTableColumns,
  statefulSetTableColumns,
} from './apps-columns.js';
import { validateControllerRevision, validateControllerRevisionUpdate } from './controller-revision.js';
import {
  type DaemonSet,
  defaultDaemonSet,
  prepareDaemonSetCreate,
  prepareDaemonSetUpdate,
  TEMPLATE_GENERATION_ANNOTATION,
  validateDaemonSetSpec,
  validateDaemonSetStatusUpdate,
  validateDaemonSetUpdate,
  validateDaemonSetUpdateStrategy,
} from './daemon-set.js';
import { BASIC_POD_TEMPLATE_RULES as POD } from './pod-template-rules.js';
import {
  defaultReplicaSet,
  type ReplicaSet,
  validateReplicaSetSpec,
  validateReplicaSetStatus,
  validateReplicaSetUpdate,
} from './replica-set.js';
import {
  defaultStatefulSet,
  dropDisabledStatefulSetFields,
  type StatefulSet,
  validateStatefulSetSpec,
  validateStatefulSetStatusUpdate,
  validateStatefulSetUpdate,
} from './stateful-set.js';

const msgs = (errs: readonly FieldError[]) => errs.map(formatFieldError);
const template = () => ({
  metadata: { labels: { app: 'x' } },
  spec: { containers: [{ name: 'c', image: 'busybox' }] },
});
const meta = { name: 'x', namespace: 'default', creationTimestamp: '2024-01-01T00:00:00Z' };

describe('ReplicaSet', () => {
  it('defaults one replica and validates with the Deployment wording for an empty selector', () => {
    const rs: ReplicaSet = {
      apiVersion: 'apps/v1',
      kind: 'ReplicaSet',
      metadata: { ...meta },
      spec: { selector: {}, template: template() },
    };
    defaultReplicaSet(rs, POD);
    assert.equal(rs.spec?.replicas, 1);
    assert.deepEqual(msgs(validateReplicaSetSpec(rs, POD)), [
      'spec.selector: Invalid value: v1.LabelSelector{MatchLabels:map[string]string(nil), MatchExpressions:[]v1.LabelSelectorRequirement(nil)}: empty selector is invalid for deployment',
    ]);
  });

  it('refuses activeDeadlineSeconds in the template', () => {
    const rs: ReplicaSet = {
      apiVersion: 'apps/v1',
      kind: 'ReplicaSet',
      metadata: { ...meta },
      spec: {
        selector: { matchLabels: { app: 'x' } },
        template: { ...template(), spec: { activeDeadlineSeconds: 5 } },
      },
    };
    defaultReplicaSet(rs, POD);
    assert.deepEqual(msgs(validateReplicaSetSpec(rs, POD)), [
      'spec.template.spec.activeDeadlineSeconds: Forbidden: activeDeadlineSeconds in ReplicaSet is not Supported',
    ]);
  });

  it('never changes its selector', () => {
    const old: ReplicaSet = {
      apiVersion: 'apps/v1',
      kind: 'ReplicaSet',
      metadata: { ...meta },
      spec: { selector: { matchLabels: { app: 'x' } }, template: template() },
    };
    defaultReplicaSet(old, POD);
    const next = structuredClone(old);
    delete (next.spec as Record<string, unknown>).selector;
    assert.deepEqual(msgs(validateReplicaSetUpdate(next, old, POD)), [
      'spec.selector: Required value',
      'spec.template.metadata.labels: Invalid value: map[string]string{"app":"x"}: `selector` does not match template `labels`',
      'spec.selector: Invalid value: null: field is immutable',
    ]);
  });

  it('checks the status counts', () => {
    assert.deepEqual(msgs(validateReplicaSetStatus({ replicas: 1, fullyLabeledReplicas: 2, observedGeneration: -1 })), [
      'status.observedGeneration: Invalid value: -1: must be greater than or equal to 0',
      'status.fullyLabeledReplicas: Invalid value: 2: cannot be greater than status.replicas',
    ]);
  });
});

describe('StatefulSet', () => {
  const sts = (spec: Record<string, unknown>): StatefulSet => ({
    apiVersion: 'apps/v1',
    kind: 'StatefulSet',
    metadata: { ...meta },
    spec,
  });

  it('defaults the pod management, update strategy, PVC retention, replicas and history', () => {
    const ss = sts({ template: { spec: {} } });
    defaultStatefulSet(ss, POD);
    assert.deepEqual(ss.spec, {
      podManagementPolicy: 'OrderedReady',
      updateStrategy: { type: 'RollingUpdate', rollingUpdate: { partition: 0 } },
      persistentVolumeClaimRetentionPolicy: { whenDeleted: 'Retain', whenScaled: 'Retain' },
      replicas: 1,
      revisionHistoryLimit: 10,
      template: { spec: { restartPolicy: 'Always' } },
    });
    const onDelete = sts({ updateStrategy: { type: 'OnDelete' } });
    defaultStatefulSet(onDelete, POD);
    assert.deepEqual(onDelete.spec?.updateStrategy, { type: 'OnDelete' });
  });

  it('reports every problem of a bad spec at once', () => {
    const ss = sts({
      selector: { matchLabels: { app: 'y' } },
      template: { ...template(), spec: { activeDeadlineSeconds: 1 } },
      podManagementPolicy: 'Random',
      updateStrategy: { type: 'OnDelete', rollingUpdate: { partition: 1 } },
      persistentVolumeClaimRetentionPolicy: { whenDeleted: 'Keep', whenScaled: 'Delete' },
      ordinals: { start: -1 },
    });
    defaultStatefulSet(ss, POD);
    assert.deepEqual(msgs(validateStatefulSetSpec(ss)), [
      "spec.podManagementPolicy: Invalid value: \"Random\": must be 'OrderedReady' or 'Parallel'",
      "spec.updateStrategy.rollingUpdate: Invalid value: apps.RollingUpdateStatefulSetStrategy{Partition:1, MaxUnavailable:(*intstr.IntOrString)(nil)}: only allowed for updateStrategy 'RollingUpdate'",
      'spec.persistentVolumeClaimRetentionPolicy.whenDeleted: Unsupported value: "Keep": supported values: "Retain", "Delete"',
      'spec.ordinals.start: Invalid value: -1: must be greater than or equal to 0',
      'spec.template.metadata.labels: Invalid value: map[string]string{"app":"x"}: `selector` does not match template `labels`',
      'spec.template.spec.activeDeadlineSeconds: Forbidden: activeDeadlineSeconds in StatefulSet is not Supported',
    ]);
  });

  it('drops maxUnavailable (feature off) unless the old object had it, and forbids most spec updates', () => {
    const ss = sts({
      updateStrategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 2 } },
      serviceName: 'a',
    });
    dropDisabledStatefulSetFields(ss);
    assert.deepEqual(ss.spec?.updateStrategy, { type: 'RollingUpdate', rollingUpdate: {} });
    const old = sts({
      updateStrategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 1 } },
      serviceName: 'a',
    });
    const kept = sts({
      updateStrategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 2 } },
      serviceName: 'b',
    });
    dropDisabledStatefulSetFields(kept, old);
    assert.equal(
      (kept.spec as { updateStrategy: { rollingUpdate: { maxUnavailable: number } } }).updateStrategy.rollingUpdate
        .maxUnavailable,
      2,
    );
    assert.deepEqual(msgs(validateStatefulSetUpdate(kept, old)), [
      "spec: Forbidden: updates to statefulset spec for fields other than 'replicas', 'ordinals', 'template', 'updateStrategy', 'persistentVolumeClaimRetentionPolicy' and 'minReadySeconds' are forbidden",
    ]);
    assert.deepEqual(validateStatefulSetUpdate(sts({ serviceName: 'a', replicas: 3 }), sts({ serviceName: 'a' })), []);
  });

  it('checks status counts, available at most ready', () => {
    const ss = sts({});
    ss.status = { replicas: 2, readyReplicas: 1, availableReplicas: 2, currentReplicas: 3 };
    assert.deepEqual(msgs(validateStatefulSetStatusUpdate(ss, sts({}))), [
      'status.currentReplicas: Invalid value: 3: cannot be greater than status.replicas',
      'status.availableReplicas: Invalid value: 2: cannot be greater than status.readyReplicas',
    ]);
  });
});

describe('DaemonSet', () => {
  const ds = (spec: Record<string, unknown>, annotations?: Record<string, string>): DaemonSet => ({
    apiVersion: 'apps/v1',
    kind: 'DaemonSet',
    metadata: { ...meta, ...(annotations ? { annotations } : {}) },
    spec,
  });

  it('defaults the update strategy and history, and keeps the template generation in its annotation', () => {
    const d = ds({ selector: { matchLabels: { app: 'x' } }, template: template() });
    defaultDaemonSet(d, POD);
    prepareDaemonSetCreate(d);
    assert.deepEqual(d.spec?.updateStrategy, {
      type: 'RollingUpdate',
      rollingUpdate: { maxUnavailable: 1, maxSurge: 0 },
    });
    assert.equal(d.spec?.revisionHistoryLimit, 10);
    assert.equal(d.metadata.annotations?.[TEMPLATE_GENERATION_ANNOTATION], '1');
    assert.deepEqual(validateDaemonSetSpec(d, POD), []);

    const same = ds(structuredClone(d.spec) as Record<string, unknown>, { [TEMPLATE_GENERATION_ANNOTATION]: '7' });
    prepareDaemonSetUpdate(same, d);
    assert.equal(same.metadata.annotations?.[TEMPLATE_GENERATION_ANNOTATION], '1');
    const changed = ds(structuredClone(d.spec) as Record<string, unknown>);
    (changed.spec as { template: { metadata: { labels: Record<string, string> } } }).template.metadata.labels.v = '2';
    prepareDaemonSetUpdate(changed, d);
    assert.equal(changed.metadata.annotations?.[TEMPLATE_GENERATION_ANNOTATION], '2');
  });

  it('never changes its selector, and checks status counts', () => {
    const old = ds({ selector: { matchLabels: { app: 'x' } }, template: template() });
    defaultDaemonSet(old, POD);
    const next = structuredClone(old);
    (next.spec as Record<string, unknown>).selector = {
      matchLabels: { app: 'x' },
      matchExpressions: [{ key: 'k', operator: 'Exists' }],
    };
    assert.deepEqual(msgs(validateDaemonSetUpdate(next, old, POD)), [
      'spec.template.metadata.labels: Invalid value: map[string]string{"app":"x"}: `selector` does not match template `labels`',
      'spec.selector: Invalid value: v1.LabelSelector{MatchLabels:map[string]string{"app":"x"}, MatchExpressions:[]v1.LabelSelectorRequirement{v1.LabelSelectorRequirement{Key:"k", Operator:"Exists", Values:[]string(nil)}}}: field is immutable',
    ]);
    next.status = { numberReady: -1 };
    assert.deepEqual(msgs(validateDaemonSetStatusUpdate(next, old)), [
      'status.numberReady: Invalid value: -1: must be greater than or equal to 0',
    ]);
  });

  it('reports a missing selector only as not matching the template', () => {
    const d = ds({ template: template() });
    defaultDaemonSet(d, POD);
    assert.deepEqual(msgs(validateDaemonSetSpec(d, POD)), [
      'spec.template.metadata.labels: Invalid value: map[string]string{"app":"x"}: `selector` does not match template `labels`',
    ]);
  });

  it('wants exactly one of maxSurge and maxUnavailable', () => {
    assert.deepEqual(
      msgs(
        validateDaemonSetUpdateStrategy({ type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 1, maxSurge: 1 } }),
      ),
      [
        'spec.updateStrategy.rollingUpdate.maxSurge: Invalid value: intstr.IntOrString{Type:0, IntVal:1, StrVal:""}: may not be set when maxUnavailable is non-zero',
      ],
    );
    assert.deepEqual(
      msgs(
        validateDaemonSetUpdateStrategy({
          type: 'RollingUpdate',
          rollingUpdate: { maxUnavailable: 0, maxSurge: '0%' },
        }),
      ),
      ['spec.updateStrategy.rollingUpdate.maxUnavailable: Required value: cannot be 0 when maxSurge is 0'],
    );
    assert.deepEqual(msgs(validateDaemonSetUpdateStrategy({ type: 'Sometimes' })), [
      'spec.updateStrategy: Unsupported value: apps.DaemonSetUpdateStrategy{Type:"Sometimes", RollingUpdate:(*apps.RollingUpdateDaemonSet)(nil)}: supported values: "RollingUpdate", "OnDelete"',
    ]);
  });
});

describe('ControllerRevision', () => {
  it('needs data, a non-negative revision, and never changes its data', () => {
    const cr = { apiVersion: 'apps/v1', kind: 'ControllerRevision', metadata: { ...meta }, revision: -1 };
    assert.deepEqual(msgs(validateControllerRevision(cr)), [
      'data: Required value: data is mandatory',
      'revision: Invalid value: -1: must be greater than or equal to 0',
    ]);
    const old = { ...cr, revision: 1, data: { a: 1 } };
    assert.deepEqual(msgs(validateControllerRevisionUpdate({ ...old, data: { a: 2 } }, old)), [
      'data: Invalid value: {"a":2}: field is immutable',
    ]);
  });
});

describe('apps columns', () => {
  const now = new Date('2024-01-01T00:05:00Z');
  const workload = {
    apiVersion: 'apps/v1',
    kind: 'X',
    metadata: { ...meta },
    spec: {
      replicas: 3,
      selector: { matchLabels: { app: 'x' }, matchExpressions: [{ key: 'tier', operator: 'In', values: ['a', 'b'] }] },
      template: {
        spec: {
          containers: [
            { name: 'a', image: 'img:1' },
            { name: 'b', image: 'img:2' },
          ],
          nodeSelector: { zone: 'z', os: 'linux' },
        },
      },
    },
    status: {
      readyReplicas: 2,
      updatedReplicas: 3,
      availableReplicas: 1,
      replicas: 3,
      desiredNumberScheduled: 4,
      numberReady: 1,
    },
  };
  const table: {
    name: string;
    cols: ReturnType<typeof deploymentTableColumns>;
    headers: string[];
    cells: unknown[];
  }[] = [
    {
      name: 'deployments',
      cols: deploymentTableColumns(),
      headers: ['Name', 'Ready', 'Up-to-date', 'Available', 'Age', 'Containers', 'Images', 'Selector'],
      cells: ['x', '2/3', 3, 1, '5m', 'a,b', 'img:1,img:2', 'app=x,tier in (a,b)'],
    },
    {
      name: 'replica sets',
      cols: replicaSetTableColumns(),
      headers: ['Name', 'Desired', 'Current', 'Ready', 'Age', 'Containers', 'Images', 'Selector'],
      cells: ['x', 3, 3, 2, '5m', 'a,b', 'img:1,img:2', 'app=x,tier in (a,b)'],
    },
    {
      name: 'stateful sets',
      cols: statefulSetTableColumns(),
      headers: ['Name', 'Ready', 'Age', 'Containers', 'Images'],
      cells: ['x', '2/3', '5m', 'a,b', 'img:1,img:2'],
    },
    {
      name: 'daemon sets',
      cols: daemonSetTableColumns(),
      headers: [
        'Name',
        'Desired',
        'Current',
        'Ready',
        'Up-to-date',
        'Available',
        'Node Selector',
        'Age',
        'Containers',
        'Images',
        'Selector',
      ],
      cells: ['x', 4, 0, 1, 0, 0, 'os=linux,zone=z', '5m', 'a,b', 'img:1,img:2', 'app=x,tier in (a,b)'],
    },
  ];
  for (const t of table) {
    it(`of ${t.name}`, () => {
      assert.deepEqual(
        t.cols.columnDefinitions.map((c) => c.name),
        t.headers,
      );
      assert.deepEqual(t.cols.cells(workload, now), t.cells);
    });
  }

  it('of controller revisions name the controller as kind.group/name', () => {
    const cr = {
      apiVersion: 'apps/v1',
      kind: 'ControllerRevision',
      metadata: {
        ...meta,
        ownerReferences: [{ apiVersion: 'apps/v1', kind: 'DaemonSet', name: 'ds', uid: 'u', controller: true }],
      },
      revision: 4,
    };
    assert.deepEqual(controllerRevisionTableColumns().cells(cr, now), ['x', 'daemonset.apps/ds', 4, '5m']);
  });
});

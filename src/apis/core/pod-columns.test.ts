import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ApiObject } from '../object.js';
import { parseFieldSelector } from '../selectors/field-selector.js';
import { convertFieldSelector, matchesFields } from '../selectors/index.js';
import {
  accessModesString,
  nodeTableColumns,
  persistentVolumeClaimTableColumns,
  persistentVolumeTableColumns,
  resourceQuotaTableColumns,
} from './cluster-columns.js';
import { podTableColumns, podTemplateTableColumns } from './pod-columns.js';
import { nodeFieldLabels, podFieldLabels } from './pod-field-labels.js';
import type { Pod } from './pod-types.js';

const now = new Date('2025-01-01T12:00:00Z');
const created = '2025-01-01T11:00:00Z';
const meta = (name: string, extra: Record<string, unknown> = {}) => ({ name, creationTimestamp: created, ...extra });

function podRow(p: Partial<Pod>): unknown[] {
  return podTableColumns({}).cells({ apiVersion: 'v1', kind: 'Pod', metadata: meta('p'), ...p } as ApiObject, now);
}

describe('pod columns', () => {
  it('names kube v1.32 columns, wide ones at priority 1', () => {
    const cols = podTableColumns({}).columnDefinitions;
    assert.deepEqual(
      cols.map((c) => [c.name, c.type, c.priority]),
      [
        ['Name', 'string', 0],
        ['Ready', 'string', 0],
        ['Status', 'string', 0],
        ['Restarts', 'string', 0],
        ['Age', 'string', 0],
        ['IP', 'string', 1],
        ['Node', 'string', 1],
        ['Nominated Node', 'string', 1],
        ['Readiness Gates', 'string', 1],
      ],
    );
  });

  const container = { name: 'c', image: 'x' };
  const cases: { name: string; pod: Partial<Pod>; want: unknown[] }[] = [
    {
      name: 'a new pending pod',
      pod: { spec: { containers: [container] }, status: { phase: 'Pending' } },
      want: ['p', '0/1', 'Pending', '0', '60m', '<none>', '<none>', '<none>', '<none>'],
    },
    {
      name: 'a running ready pod with restarts',
      pod: {
        spec: { nodeName: 'n1', containers: [container], readinessGates: [{ conditionType: 'x/y' }] },
        status: {
          phase: 'Running',
          podIPs: [{ ip: '10.1.2.3' }],
          conditions: [{ type: 'x/y', status: 'True' }],
          containerStatuses: [
            {
              name: 'c',
              ready: true,
              restartCount: 2,
              state: { running: {} },
              lastState: { terminated: { exitCode: 1, finishedAt: '2025-01-01T11:55:00Z' } },
            },
          ],
        },
      },
      want: ['p', '1/1', 'Running', '2 (5m ago)', '60m', '10.1.2.3', 'n1', '<none>', '1/1'],
    },
    {
      name: 'a crash-looping container',
      pod: {
        spec: { containers: [container] },
        status: {
          phase: 'Running',
          containerStatuses: [{ name: 'c', state: { waiting: { reason: 'CrashLoopBackOff' } } }],
        },
      },
      want: ['p', '0/1', 'CrashLoopBackOff', '0', '60m', '<none>', '<none>', '<none>', '<none>'],
    },
    {
      name: 'an init container still running',
      pod: {
        spec: { initContainers: [container, container], containers: [container] },
        status: {
          phase: 'Pending',
          initContainerStatuses: [
            { name: 'c', state: { terminated: { exitCode: 0 } } },
            { name: 'c', state: { running: {} } },
          ],
        },
      },
      want: ['p', '0/1', 'Init:1/2', '0', '60m', '<none>', '<none>', '<none>', '<none>'],
    },
    {
      name: 'a pod being deleted',
      pod: {
        metadata: meta('p', { deletionTimestamp: created }),
        spec: { containers: [container] },
        status: { phase: 'Running' },
      },
      want: ['p', '0/1', 'Terminating', '0', '60m', '<none>', '<none>', '<none>', '<none>'],
    },
    {
      name: 'a scheduling-gated pod',
      pod: {
        spec: { containers: [container] },
        status: {
          phase: 'Pending',
          conditions: [{ type: 'PodScheduled', status: 'False', reason: 'SchedulingGated' }],
        },
      },
      want: ['p', '0/1', 'SchedulingGated', '0', '60m', '<none>', '<none>', '<none>', '<none>'],
    },
  ];
  for (const c of cases) {
    it(c.name, () => {
      assert.deepEqual(podRow(c.pod), c.want);
    });
  }

  it('pod templates list containers, images and pod labels', () => {
    const t = {
      apiVersion: 'v1',
      kind: 'PodTemplate',
      metadata: meta('t'),
      template: {
        metadata: { labels: { b: '2', a: '1' } },
        spec: {
          containers: [
            { name: 'x', image: 'i1' },
            { name: 'y', image: 'i2' },
          ],
        },
      },
    };
    assert.deepEqual(podTemplateTableColumns().cells(t, now), ['t', 'x,y', 'i1,i2', 'a=1,b=2']);
  });
});

describe('node, volume and quota columns', () => {
  it('node status, roles and wide cells', () => {
    const node = {
      apiVersion: 'v1',
      kind: 'Node',
      metadata: meta('n1', { labels: { 'node-role.kubernetes.io/control-plane': '', 'kubernetes.io/role': 'worker' } }),
      spec: { unschedulable: true },
      status: {
        conditions: [{ type: 'Ready', status: 'False' }],
        addresses: [{ type: 'InternalIP', address: '10.0.0.5' }],
        nodeInfo: { kubeletVersion: 'v1.32.0', osImage: '', kernelVersion: '6.1', containerRuntimeVersion: '' },
      },
    };
    assert.deepEqual(nodeTableColumns({}).cells(node, now), [
      'n1',
      'NotReady,SchedulingDisabled',
      'control-plane,worker',
      '60m',
      'v1.32.0',
      '10.0.0.5',
      '<none>',
      '<unknown>',
      '6.1',
      '<unknown>',
    ]);
  });

  it('persistent volume and claim cells', () => {
    const pv = {
      apiVersion: 'v1',
      kind: 'PersistentVolume',
      metadata: meta('pv1'),
      spec: {
        capacity: { storage: '1024Mi' },
        accessModes: ['ReadWriteMany', 'ReadWriteOnce'],
        persistentVolumeReclaimPolicy: 'Retain',
        claimRef: { namespace: 'ns', name: 'c' },
        storageClassName: 'fast',
        volumeMode: 'Filesystem',
      },
      status: { phase: 'Bound' },
    };
    assert.deepEqual(persistentVolumeTableColumns({}).cells(pv, now), [
      'pv1',
      '1Gi',
      'RWO,RWX',
      'Retain',
      'Bound',
      'ns/c',
      'fast',
      '<unset>',
      '',
      '60m',
      'Filesystem',
    ]);
    const pvc = {
      apiVersion: 'v1',
      kind: 'PersistentVolumeClaim',
      metadata: meta('c'),
      spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } },
      status: { phase: 'Pending' },
    };
    assert.deepEqual(persistentVolumeClaimTableColumns({}).cells(pvc, now), [
      'c',
      'Pending',
      '',
      '',
      '',
      '',
      '<unset>',
      '60m',
      '<unset>',
    ]);
    assert.equal(accessModesString(['ReadWriteOncePod', 'ReadOnlyMany', 'ReadOnlyMany']), 'ROX,RWOP');
  });

  it('resource quota request and limit cells', () => {
    const rq = {
      apiVersion: 'v1',
      kind: 'ResourceQuota',
      metadata: meta('q'),
      status: {
        hard: { pods: '10', 'limits.cpu': '2', 'requests.memory': '1Gi' },
        used: { pods: '1', 'limits.cpu': '500m' },
      },
    };
    assert.deepEqual(resourceQuotaTableColumns().cells(rq, now), [
      'q',
      'pods: 1/10, requests.memory: 0/1Gi',
      'limits.cpu: 500m/2',
      '60m',
    ]);
  });
});

describe('pod and node field selectors', () => {
  const p = {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: 'p', namespace: 'ns' },
    spec: { nodeName: 'n1', restartPolicy: 'Always', schedulerName: 'default-scheduler', serviceAccountName: 'sa' },
    status: { phase: 'Running', podIP: '10.0.0.1', podIPs: [{ ip: '10.0.0.1' }] },
  };
  const cases: [string, boolean][] = [
    ['spec.nodeName=n1', true],
    ['spec.host=n1', true],
    ['spec.nodeName=n2', false],
    ['status.phase=Running,spec.restartPolicy=Always', true],
    ['spec.hostNetwork=false', true],
    ['status.podIP=10.0.0.1', true],
    ['status.podIPs=10.0.0.1', false],
    ['status.nominatedNodeName=', true],
    ['metadata.namespace=ns,spec.serviceAccountName=sa', true],
  ];
  for (const [selector, want] of cases) {
    it(`${selector} → ${want}`, () => {
      const sel = convertFieldSelector(parseFieldSelector(selector), podFieldLabels);
      assert.equal(matchesFields(sel, podFieldLabels.fieldSet(p)), want);
    });
  }
  it('refuses unknown labels with kube message', () => {
    assert.throws(
      () => convertFieldSelector(parseFieldSelector('spec.foo=x'), podFieldLabels),
      /field label not supported: spec.foo/,
    );
    assert.throws(
      () => convertFieldSelector(parseFieldSelector('metadata.namespace=x'), nodeFieldLabels),
      /field label not supported/,
    );
  });
  it('selects cordoned nodes', () => {
    const n = { apiVersion: 'v1', kind: 'Node', metadata: { name: 'n' }, spec: { unschedulable: true } };
    const sel = convertFieldSelector(parseFieldSelector('spec.unschedulable=true'), nodeFieldLabels);
    assert.equal(matchesFields(sel, nodeFieldLabels.fieldSet(n)), true);
  });
});

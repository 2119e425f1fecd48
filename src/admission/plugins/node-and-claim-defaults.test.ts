import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ApiObject } from '../../apis/object.js';
import type { AdmissionAttributes, Operation } from '../admission-attributes.js';
import { AdmissionChain } from '../admission-chain.js';
import { defaultStorageClass, defaultStorageClassPlugin } from './default-storage-class.js';
import { defaultTolerationSeconds } from './default-toleration-seconds.js';
import { taintNodesByCondition } from './taint-nodes-by-condition.js';

const signal = new AbortController().signal;
const NOT_READY = 'node.example.com/not-ready';
const UNREACHABLE = 'node.example.com/unreachable';

function attrs(resource: string, operation: Operation, object: ApiObject, subresource = ''): AdmissionAttributes {
  return {
    kind: { group: '', version: 'v1', kind: object.kind },
    resource: { group: '', version: 'v1', resource },
    subresource,
    namespace: resource === 'nodes' ? '' : 'default',
    name: object.metadata.name ?? '',
    operation,
    object,
    oldObject: operation === 'UPDATE' ? object : undefined,
    user: { name: 'u', groups: [] },
    dryRun: false,
    options: undefined,
    warnings: { add: () => {} },
  };
}

const obj = (kind: string, body: Record<string, unknown>, meta: Record<string, unknown> = {}): ApiObject => ({
  apiVersion: 'v1',
  kind,
  metadata: { name: 'x', ...meta },
  ...body,
});

describe('DefaultTolerationSeconds', () => {
  const chain = new AdmissionChain([defaultTolerationSeconds({ notReady: NOT_READY, unreachable: UNREACHABLE })]);
  const notReady = { key: NOT_READY, operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 };
  const unreachable = { key: UNREACHABLE, operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 };
  const cases: { name: string; tolerations?: unknown[]; want: unknown[] }[] = [
    { name: 'no tolerations: both added', want: [notReady, unreachable] },
    {
      name: 'a NoSchedule toleration of not-ready does not count',
      tolerations: [{ key: NOT_READY, operator: 'Exists', effect: 'NoSchedule' }],
      want: [{ key: NOT_READY, operator: 'Exists', effect: 'NoSchedule' }, notReady, unreachable],
    },
    {
      name: 'a toleration of not-ready with any effect counts',
      tolerations: [{ key: NOT_READY, operator: 'Exists' }],
      want: [{ key: NOT_READY, operator: 'Exists' }, unreachable],
    },
    {
      name: 'an empty key tolerates everything',
      tolerations: [{ operator: 'Exists' }],
      want: [{ operator: 'Exists' }],
    },
    {
      name: 'the caller’s own seconds are kept',
      tolerations: [{ key: UNREACHABLE, operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 5 }],
      want: [{ key: UNREACHABLE, operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 5 }, notReady],
    },
  ];
  for (const c of cases) {
    it(c.name, async () => {
      const pod = obj('Pod', { spec: { containers: [], ...(c.tolerations ? { tolerations: c.tolerations } : {}) } });
      await chain.admit(attrs('pods', 'CREATE', pod), signal);
      assert.deepEqual((pod.spec as { tolerations: unknown[] }).tolerations, c.want);
    });
  }

  it('adds them back on update and leaves sub-resources alone', async () => {
    const pod = obj('Pod', { spec: {} });
    await chain.admit(attrs('pods', 'UPDATE', pod), signal);
    assert.deepEqual((pod.spec as { tolerations: unknown[] }).tolerations, [notReady, unreachable]);
    const bound = obj('Pod', { spec: {} });
    await chain.admit(attrs('pods', 'CREATE', bound, 'binding'), signal);
    assert.deepEqual(bound.spec, {});
  });
});

describe('TaintNodesByCondition', () => {
  const chain = new AdmissionChain([taintNodesByCondition(NOT_READY)]);
  it('taints a new node not-ready:NoSchedule once', async () => {
    const node = obj('Node', {});
    await chain.admit(attrs('nodes', 'CREATE', node), signal);
    assert.deepEqual(node.spec, { taints: [{ key: NOT_READY, effect: 'NoSchedule' }] });
    const tainted = obj('Node', { spec: { taints: [{ key: NOT_READY, effect: 'NoSchedule', value: 'x' }] } });
    await chain.admit(attrs('nodes', 'CREATE', tainted), signal);
    assert.deepEqual(tainted.spec, { taints: [{ key: NOT_READY, effect: 'NoSchedule', value: 'x' }] });
    const other = obj('Node', { spec: { taints: [{ key: NOT_READY, effect: 'NoExecute' }] } });
    await chain.admit(attrs('nodes', 'CREATE', other), signal);
    assert.equal((other.spec as { taints: unknown[] }).taints.length, 2);
  });
});

describe('DefaultStorageClass', () => {
  const sc = (name: string, created: string, isDefault: string | undefined) =>
    obj(
      'StorageClass',
      {},
      {
        name,
        creationTimestamp: created,
        ...(isDefault ? { annotations: { 'storageclass.example.com/is-default-class': isDefault } } : {}),
      },
    );
  const annotations = ['storageclass.example.com/is-default-class'];

  it('picks the newest default class, by name when equally old', () => {
    const classes = [
      sc('old', '2024-01-01T00:00:00Z', 'true'),
      sc('b', '2024-06-01T00:00:00Z', 'true'),
      sc('a', '2024-06-01T00:00:00Z', 'true'),
      sc('newest-not-default', '2025-01-01T00:00:00Z', 'false'),
    ];
    assert.equal(defaultStorageClass(classes, annotations)?.metadata.name, 'a');
    assert.equal(defaultStorageClass([sc('plain', '2024-01-01T00:00:00Z', undefined)], annotations), undefined);
  });

  const plugin = (classes: ApiObject[]) =>
    new AdmissionChain([
      defaultStorageClassPlugin({
        defaultAnnotations: annotations,
        claimClassAnnotation: 'volume.beta.example.com/storage-class',
        list: async () => classes,
      }),
    ]);
  const classes = [sc('fast', '2024-01-01T00:00:00Z', 'true')];
  const cases: { name: string; spec: Record<string, unknown>; meta?: Record<string, unknown>; want: unknown }[] = [
    { name: 'no class: the default', spec: {}, want: 'fast' },
    { name: 'an empty class stays empty', spec: { storageClassName: '' }, want: '' },
    { name: 'a named class stays', spec: { storageClassName: 'slow' }, want: 'slow' },
    {
      name: 'the beta annotation counts as a class',
      spec: {},
      meta: { annotations: { 'volume.beta.example.com/storage-class': 'slow' } },
      want: undefined,
    },
  ];
  for (const c of cases) {
    it(c.name, async () => {
      const claim = obj('PersistentVolumeClaim', { spec: { ...c.spec } }, c.meta);
      await plugin(classes).admit(attrs('persistentvolumeclaims', 'CREATE', claim), signal);
      assert.equal((claim.spec as { storageClassName?: string }).storageClassName, c.want);
    });
  }

  it('leaves a claim alone when no class is the default', async () => {
    const claim = obj('PersistentVolumeClaim', { spec: {} });
    await plugin([]).admit(attrs('persistentvolumeclaims', 'CREATE', claim), signal);
    assert.deepEqual(claim.spec, {});
  });
});

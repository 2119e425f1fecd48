import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { builtinResources } from '../apis/builtin.js';
import type { Schema } from '../apis/schema/schema.js';
import { JsonPatchError, StrategicMergePatchError } from './errors.js';
import { patchErrorToStatusError, UNPROCESSABLE_PATCH_MESSAGE } from './patch-status.js';
import { applyStrategicMergePatch, schemaSupportsStrategicMerge } from './strategic-merge.js';

function schemaOf(kind: string): Schema {
  const def = builtinResources().find((d) => d.kind === kind);
  assert.ok(def, `no built-in kind ${kind}`);
  return def.schema;
}

const uidA = '6f1a0c1e-0000-4000-8000-00000000000a';
const uidB = '6f1a0c1e-0000-4000-8000-00000000000b';
const uidC = '6f1a0c1e-0000-4000-8000-00000000000c';

function ownerRef(uid: string, name: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { apiVersion: 'v1', kind: 'ConfigMap', name, uid, ...extra };
}

const configMap = {
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: {
    name: 'web',
    namespace: 'default',
    uid: '0a0a0a0a-0000-4000-8000-000000000001',
    resourceVersion: '42',
    labels: { app: 'web', tier: 'frontend' },
    annotations: { note: 'keep', x: 'drop me' },
    finalizers: ['example.orch.io/a', 'example.orch.io/b'],
    ownerReferences: [ownerRef(uidA, 'a'), ownerRef(uidB, 'b')],
  },
  data: { k1: 'v1', k2: 'v2' },
};

interface Case {
  name: string;
  kind: string;
  original: Record<string, unknown>;
  patch: unknown;
  expected: unknown;
}

function withMetadata(changes: Record<string, unknown>, rest: Record<string, unknown> = {}): Record<string, unknown> {
  return { ...configMap, ...rest, metadata: { ...configMap.metadata, ...changes } };
}

const cases: Case[] = [
  {
    name: 'kubectl label: adds a label',
    kind: 'ConfigMap',
    original: configMap,
    patch: { metadata: { labels: { env: 'prod' } } },
    expected: withMetadata({ labels: { app: 'web', tier: 'frontend', env: 'prod' } }),
  },
  {
    name: 'kubectl label tier-: removes a label (with the resourceVersion kubectl may send)',
    kind: 'ConfigMap',
    original: configMap,
    patch: { metadata: { labels: { tier: null }, resourceVersion: '42' } },
    expected: withMetadata({ labels: { app: 'web' } }),
  },
  {
    name: 'kubectl annotate x-: removes an annotation',
    kind: 'ConfigMap',
    original: configMap,
    patch: { metadata: { annotations: { x: null } } },
    expected: withMetadata({ annotations: { note: 'keep' } }),
  },
  {
    name: 'labels on an object that has none',
    kind: 'ConfigMap',
    original: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'bare' } },
    patch: { metadata: { labels: { a: 'b', gone: null } } },
    expected: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'bare', labels: { a: 'b' } } },
  },
  {
    name: 'data keys merge and null deletes one',
    kind: 'ConfigMap',
    original: configMap,
    patch: { data: { k1: null, k3: 'v3' } },
    expected: { ...configMap, data: { k2: 'v2', k3: 'v3' } },
  },
  {
    name: 'finalizers (merge strategy) gain an item, which kube puts first',
    kind: 'ConfigMap',
    original: configMap,
    patch: { metadata: { finalizers: ['example.orch.io/c'] } },
    expected: withMetadata({ finalizers: ['example.orch.io/c', 'example.orch.io/a', 'example.orch.io/b'] }),
  },
  {
    name: 'finalizers: kubectl edit-style append with $setElementOrder',
    kind: 'ConfigMap',
    original: configMap,
    patch: {
      metadata: {
        '$setElementOrder/finalizers': ['example.orch.io/a', 'example.orch.io/b', 'example.orch.io/c'],
        finalizers: ['example.orch.io/c'],
      },
    },
    expected: withMetadata({ finalizers: ['example.orch.io/a', 'example.orch.io/b', 'example.orch.io/c'] }),
  },
  {
    name: 'finalizers: $deleteFromPrimitiveList removes one',
    kind: 'ConfigMap',
    original: configMap,
    patch: {
      metadata: {
        '$deleteFromPrimitiveList/finalizers': ['example.orch.io/a'],
        '$setElementOrder/finalizers': ['example.orch.io/b'],
      },
    },
    expected: withMetadata({ finalizers: ['example.orch.io/b'] }),
  },
  {
    name: 'finalizers: an existing item is not duplicated',
    kind: 'ConfigMap',
    original: configMap,
    patch: { metadata: { finalizers: ['example.orch.io/b'] } },
    expected: withMetadata({ finalizers: ['example.orch.io/a', 'example.orch.io/b'] }),
  },
  {
    name: 'ownerReferences merge by uid',
    kind: 'ConfigMap',
    original: configMap,
    patch: { metadata: { ownerReferences: [{ uid: uidB, controller: true }, ownerRef(uidC, 'c')] } },
    expected: withMetadata({
      ownerReferences: [ownerRef(uidA, 'a'), ownerRef(uidB, 'b', { controller: true }), ownerRef(uidC, 'c')],
    }),
  },
  {
    name: 'ownerReferences: $patch: delete by uid',
    kind: 'ConfigMap',
    original: configMap,
    patch: { metadata: { ownerReferences: [{ $patch: 'delete', uid: uidA }] } },
    expected: withMetadata({ ownerReferences: [ownerRef(uidB, 'b')] }),
  },
  {
    name: 'ownerReferences: $patch: replace',
    kind: 'ConfigMap',
    original: configMap,
    patch: { metadata: { ownerReferences: [{ $patch: 'replace' }, ownerRef(uidC, 'c')] } },
    expected: withMetadata({ ownerReferences: [ownerRef(uidC, 'c')] }),
  },
  {
    name: 'managedFields (no strategy) is replaced',
    kind: 'ConfigMap',
    original: withMetadata({ managedFields: [{ manager: 'a', operation: 'Update' }] }),
    patch: { metadata: { managedFields: [{}] } },
    expected: withMetadata({ managedFields: [{}] }),
  },
  {
    name: 'kubectl apply (client-side) three-way patch',
    kind: 'ConfigMap',
    original: withMetadata({ finalizers: ['example.orch.io/a', 'example.orch.io/b', 'example.orch.io/x'] }),
    patch: {
      data: { k1: null, k9: 'v9' },
      metadata: {
        annotations: { 'kubectl.kubernetes.io/last-applied-configuration': '{"apiVersion":"v1"}\n' },
        labels: { tier: null, env: 'prod' },
        '$deleteFromPrimitiveList/finalizers': ['example.orch.io/b'],
        '$setElementOrder/finalizers': ['example.orch.io/a', 'example.orch.io/c'],
        finalizers: ['example.orch.io/c'],
      },
    },
    expected: {
      ...configMap,
      data: { k2: 'v2', k9: 'v9' },
      metadata: {
        ...configMap.metadata,
        labels: { app: 'web', env: 'prod' },
        annotations: {
          note: 'keep',
          x: 'drop me',
          'kubectl.kubernetes.io/last-applied-configuration': '{"apiVersion":"v1"}\n',
        },
        finalizers: ['example.orch.io/a', 'example.orch.io/c', 'example.orch.io/x'],
      },
    },
  },
  {
    name: 'Namespace spec.finalizers (no strategy) is replaced',
    kind: 'Namespace',
    original: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'ns' }, spec: { finalizers: ['orch'] } },
    patch: { spec: { finalizers: ['example.orch.io/x'] } },
    expected: {
      apiVersion: 'v1',
      kind: 'Namespace',
      metadata: { name: 'ns' },
      spec: { finalizers: ['example.orch.io/x'] },
    },
  },
  {
    name: 'Namespace status.conditions merge by type',
    kind: 'Namespace',
    original: {
      metadata: { name: 'ns' },
      status: {
        phase: 'Terminating',
        conditions: [
          { type: 'NamespaceDeletionDiscoveryFailure', status: 'False' },
          { type: 'NamespaceContentRemaining', status: 'True', message: 'pods remain' },
        ],
      },
    },
    patch: { status: { conditions: [{ type: 'NamespaceContentRemaining', status: 'False', message: null }] } },
    expected: {
      metadata: { name: 'ns' },
      status: {
        phase: 'Terminating',
        conditions: [
          { type: 'NamespaceDeletionDiscoveryFailure', status: 'False' },
          { type: 'NamespaceContentRemaining', status: 'False' },
        ],
      },
    },
  },
  {
    name: 'ServiceAccount secrets merge by name; $patch: delete drops one',
    kind: 'ServiceAccount',
    original: { metadata: { name: 'sa' }, secrets: [{ name: 's1' }, { name: 's2' }] },
    patch: { secrets: [{ name: 's3' }, { name: 's1', $patch: 'delete' }] },
    expected: { metadata: { name: 'sa' }, secrets: [{ name: 's3' }, { name: 's2' }] },
  },
  {
    name: 'ServiceAccount imagePullSecrets (no strategy) is replaced',
    kind: 'ServiceAccount',
    original: { metadata: { name: 'sa' }, imagePullSecrets: [{ name: 'r1' }] },
    patch: { imagePullSecrets: [{ name: 'r2' }] },
    expected: { metadata: { name: 'sa' }, imagePullSecrets: [{ name: 'r2' }] },
  },
  {
    name: 'Event involvedObject (a struct) merges field by field',
    kind: 'Event',
    original: {
      metadata: { name: 'e', namespace: 'default' },
      involvedObject: { kind: 'ConfigMap', namespace: 'default', name: 'web', uid: uidA },
      count: 1,
    },
    patch: { involvedObject: { fieldPath: 'data', uid: null }, count: 2 },
    expected: {
      metadata: { name: 'e', namespace: 'default' },
      involvedObject: { kind: 'ConfigMap', namespace: 'default', name: 'web', fieldPath: 'data' },
      count: 2,
    },
  },
  {
    name: 'Secret data and Lease spec merge like maps',
    kind: 'Lease',
    original: { metadata: { name: 'l' }, spec: { holderIdentity: 'a', leaseDurationSeconds: 15 } },
    patch: { spec: { holderIdentity: 'b', leaseTransitions: 1 } },
    expected: { metadata: { name: 'l' }, spec: { holderIdentity: 'b', leaseDurationSeconds: 15, leaseTransitions: 1 } },
  },
];

describe('strategic merge on built-in kinds', () => {
  for (const c of cases) {
    it(c.name, () => {
      const before = JSON.stringify(c.original);
      assert.deepStrictEqual(applyStrategicMergePatch(c.original, c.patch, schemaOf(c.kind)), c.expected);
      assert.equal(JSON.stringify(c.original), before, 'original was modified');
    });
  }

  it('every built-in kind supports strategic merge', () => {
    for (const def of builtinResources()) assert.equal(schemaSupportsStrategicMerge(def.schema), true, def.kind);
  });

  it('reports a list merge without a merge key in the item', () => {
    assert.throws(
      () =>
        applyStrategicMergePatch(configMap, { metadata: { ownerReferences: [{ name: 'x' }] } }, schemaOf('ConfigMap')),
      (e: unknown) =>
        e instanceof StrategicMergePatchError &&
        e.code === 500 &&
        e.message === 'map: map[name:x] does not contain declared merge key: uid',
    );
  });

  it('reports a map merge into a field ObjectMeta lacks', () => {
    const original = withMetadata({ bogus: { a: 1 } });
    assert.throws(
      () => applyStrategicMergePatch(original, { metadata: { bogus: { b: 2 } } }, schemaOf('ConfigMap')),
      (e: unknown) =>
        e instanceof StrategicMergePatchError &&
        e.message === 'unable to find api field in struct ObjectMeta for the json field "bogus"',
    );
  });
});

describe('patchErrorToStatusError', () => {
  it('JSON patch application failures are 422 Invalid with kube generic message', () => {
    for (const kind of ['test-failed', 'invalid-path', 'invalid-operation'] as const) {
      const status = patchErrorToStatusError(new JsonPatchError(kind, 'detail')).toStatus();
      assert.deepEqual(status, {
        kind: 'Status',
        apiVersion: 'v1',
        metadata: {},
        status: 'Failure',
        message: UNPROCESSABLE_PATCH_MESSAGE,
        reason: 'Invalid',
        details: {},
        code: 422,
      });
    }
  });

  it('undecodable JSON patches are 400, oversized ones 413', () => {
    const bad = patchErrorToStatusError(
      new JsonPatchError('invalid-patch', 'json: cannot unmarshal object'),
    ).toStatus();
    assert.equal(bad.code, 400);
    assert.equal(bad.reason, 'BadRequest');
    assert.equal(bad.message, 'json: cannot unmarshal object');
    const big = patchErrorToStatusError(new JsonPatchError('too-many-operations', 'The allowed maximum … got 10001'));
    assert.equal(big.code, 413);
    assert.equal(big.message, 'Request entity too large: The allowed maximum … got 10001');
  });

  it('strategic merge failures map to 400, 422 or a reasonless 500', () => {
    const bad = patchErrorToStatusError(
      new StrategicMergePatchError('bad-retain-keys', 'invalid patch format of retainKeys'),
    );
    assert.equal(bad.code, 400);
    assert.equal(bad.reason, 'BadRequest');
    assert.equal(bad.message, 'invalid patch format of retainKeys');
    const lists = patchErrorToStatusError(
      new StrategicMergePatchError('list-of-lists', 'lists of lists are not supported'),
    );
    assert.equal(lists.code, 422);
    assert.equal(lists.message, UNPROCESSABLE_PATCH_MESSAGE);
    const internal = patchErrorToStatusError(
      new StrategicMergePatchError('no-merge-key', 'map: map[] does not…'),
    ).toStatus();
    assert.equal(internal.code, 500);
    assert.equal(internal.reason, undefined);
    assert.equal(internal.message, 'map: map[] does not…');
  });
});

import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, it } from 'node:test';
import type { ApiObject } from '../../apis/object.js';
import { type ControllerFixture, controllerFixture, waitFor } from '../testing/controller-fixture.js';
import type { NamespaceCondition } from './namespace-conditions.js';

type Ns = ApiObject & { status?: { phase?: string; conditions?: NamespaceCondition[] } };

describe('namespace controller (in process, real registries)', () => {
  let f: ControllerFixture;
  beforeEach(async () => {
    f = await controllerFixture();
  });
  afterEach(async () => {
    await f.stopControllers();
  });

  it('empties a deleted namespace, waits for finalizers, reports conditions, then removes it', async () => {
    f.startControllers();
    // Created as a client would, with a field the client owns (so managedFields are tracked).
    await f
      .registry('namespaces')
      .create(
        f.ctx(),
        { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'ns1', labels: { team: 'a' } } },
        { dryRun: false, fieldManager: 'kubectl-create' },
      );
    await f.configMap('ns1', 'plain');
    await f.configMap('ns1', 'held', { finalizers: ['example.com/hold'] });
    await f
      .registry('secrets')
      .create(f.ctx('ns1'), { apiVersion: 'v1', kind: 'Secret', metadata: { name: 's' } }, { dryRun: false });
    await f.registry('namespaces').delete(f.ctx(), 'ns1', { dryRun: false });

    await waitFor('plain content to go', async () => !(await f.find('configmaps', 'ns1', 'plain')));
    assert.equal(await f.find('secrets', 'ns1', 's'), undefined);
    const ns = await waitFor('the conditions', async () => {
      const n = (await f.find('namespaces', '', 'ns1')) as Ns | undefined;
      return n?.status?.conditions?.some((c) => c.type === 'NamespaceFinalizersRemaining' && c.status === 'True')
        ? n
        : undefined;
    });
    assert.equal(ns.status?.phase, 'Terminating');
    // The controller writes through the same registry as any client: its status update is
    // recorded under its own field manager, as kube-controller-manager's writes are.
    const statusEntry = ns.metadata.managedFields?.find((m) => m.manager === 'namespace-controller');
    assert.ok(statusEntry, JSON.stringify(ns.metadata.managedFields));
    assert.equal(statusEntry.operation, 'Update');
    assert.equal(statusEntry.subresource, 'status');
    const byType = new Map(ns.status!.conditions!.map((c) => [c.type, c]));
    assert.deepEqual(
      [...byType.keys()],
      [
        'NamespaceDeletionDiscoveryFailure',
        'NamespaceDeletionGroupVersionParsingFailure',
        'NamespaceDeletionContentFailure',
        'NamespaceContentRemaining',
        'NamespaceFinalizersRemaining',
      ],
    );
    assert.deepEqual(byType.get('NamespaceContentRemaining'), {
      type: 'NamespaceContentRemaining',
      status: 'True',
      lastTransitionTime: byType.get('NamespaceContentRemaining')!.lastTransitionTime,
      reason: 'SomeResourcesRemain',
      message: 'Some resources are remaining: configmaps. has 1 resource instances',
    });
    assert.equal(
      byType.get('NamespaceFinalizersRemaining')!.message,
      'Some finalizers are remaining: example.com/hold in 1 resource instances',
    );
    assert.equal(byType.get('NamespaceDeletionContentFailure')!.status, 'False');
    assert.equal(byType.get('NamespaceDeletionContentFailure')!.reason, 'ContentDeleted');
    const held = (await f.find('configmaps', 'ns1', 'held'))!;
    assert.ok(held.metadata.deletionTimestamp);

    await f
      .registry('configmaps')
      .update(
        f.ctx('ns1'),
        'held',
        { retryOnConflict: true, compute: (live) => ({ ...live!, metadata: { ...live!.metadata, finalizers: [] } }) },
        { dryRun: false },
      );
    await waitFor('the namespace to be removed', async () => !(await f.find('namespaces', '', 'ns1')), 5000);
  });

  it('picks up namespaces that were deleted while it was not running', async () => {
    await f.createNamespace('ns2');
    await f.configMap('ns2', 'c');
    await f.registry('namespaces').delete(f.ctx(), 'ns2', { dryRun: false });
    await new Promise((r) => setTimeout(r, 50));
    assert.equal(((await f.find('namespaces', '', 'ns2')) as Ns).status?.phase, 'Terminating');
    f.startControllers();
    await waitFor('the namespace to be removed', async () => !(await f.find('namespaces', '', 'ns2')));
    assert.equal(await f.find('configmaps', 'ns2', 'c'), undefined);
  });
});

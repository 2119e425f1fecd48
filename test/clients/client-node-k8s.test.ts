import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  ApiException,
  CoordinationV1Api,
  CoreV1Api,
  KubeConfig,
  makeInformer,
  PatchStrategy,
  setHeaderOptions,
  type V1ConfigMap,
  type V1Lease,
  V1MicroTime,
  type V1Status,
} from '@kubernetes/client-node';
import { type ServerProcess, startServerProcess } from '../support/server-process.js';

// @kubernetes/client-node 1.x, unmodified, with its typed clients against a server that uses
// kube-apiserver's names (`--api-domain=k8s.io`): the generated code has `coordination.k8s.io`
// and `meta.k8s.io` compiled in.

const NS = 'client-node';

/** The Status a failed call carried (client-node keeps the body as text). */
async function failure(call: Promise<unknown>): Promise<{ code: number; status: V1Status }> {
  try {
    await call;
  } catch (e) {
    assert.ok(e instanceof ApiException, `expected an ApiException, got ${e}`);
    const body = typeof e.body === 'string' ? JSON.parse(e.body) : e.body;
    return { code: e.code, status: body as V1Status };
  }
  assert.fail('the call succeeded');
}

async function eventually(check: () => boolean, what: string, timeoutMs = 10000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const merge = setHeaderOptions('Content-Type', PatchStrategy.MergePatch);
const strategic = setHeaderOptions('Content-Type', PatchStrategy.StrategicMergePatch);
const jsonPatch = setHeaderOptions('Content-Type', PatchStrategy.JsonPatch);

describe('@kubernetes/client-node 1.x against --api-domain=k8s.io', () => {
  let server: ServerProcess;
  let kc: KubeConfig;
  let core: CoreV1Api;
  let coordination: CoordinationV1Api;

  before(async () => {
    server = await startServerProcess({ args: ['--api-domain=k8s.io'] });
    kc = new KubeConfig();
    kc.loadFromFile(server.kubeconfig);
    core = kc.makeApiClient(CoreV1Api);
    coordination = kc.makeApiClient(CoordinationV1Api);
    await core.createNamespace({ body: { metadata: { name: NS } } });
  });
  after(async () => server?.dispose());

  it('CoordinationV1Api: create, read, replace, patch, list and delete a Lease', async () => {
    const created = await coordination.createNamespacedLease({
      namespace: NS,
      body: {
        apiVersion: 'coordination.k8s.io/v1',
        kind: 'Lease',
        metadata: { name: 'typed' },
        spec: { holderIdentity: 'a', leaseDurationSeconds: 10, renewTime: new V1MicroTime() },
      },
    });
    assert.equal(created.apiVersion, 'coordination.k8s.io/v1');
    assert.equal(created.kind, 'Lease');
    assert.equal(created.spec?.holderIdentity, 'a');
    assert.match(String(created.spec?.renewTime), /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/);

    const read = await coordination.readNamespacedLease({ name: 'typed', namespace: NS });
    assert.equal(read.metadata?.uid, created.metadata?.uid);
    assert.equal(read.metadata?.resourceVersion, created.metadata?.resourceVersion);

    read.spec = { ...read.spec, holderIdentity: 'b', leaseTransitions: 1 };
    const replaced = await coordination.replaceNamespacedLease({ name: 'typed', namespace: NS, body: read });
    assert.equal(replaced.spec?.holderIdentity, 'b');
    assert.notEqual(replaced.metadata?.resourceVersion, read.metadata?.resourceVersion);

    // Replacing from the stale copy conflicts.
    const stale = await failure(coordination.replaceNamespacedLease({ name: 'typed', namespace: NS, body: read }));
    assert.equal(stale.code, 409);
    assert.equal(stale.status.reason, 'Conflict');
    assert.equal(stale.status.details?.group, 'coordination.k8s.io');
    assert.equal(stale.status.details?.kind, 'leases');

    let patched = await coordination.patchNamespacedLease(
      { name: 'typed', namespace: NS, body: { spec: { holderIdentity: 'c' } } },
      merge,
    );
    assert.equal(patched.spec?.holderIdentity, 'c');
    assert.equal(patched.spec?.leaseTransitions, 1);
    patched = await coordination.patchNamespacedLease(
      { name: 'typed', namespace: NS, body: { metadata: { labels: { role: 'leader' } } } },
      strategic,
    );
    assert.deepEqual(patched.metadata?.labels, { role: 'leader' });
    patched = await coordination.patchNamespacedLease(
      { name: 'typed', namespace: NS, body: [{ op: 'replace', path: '/spec/leaseDurationSeconds', value: 20 }] },
      jsonPatch,
    );
    assert.equal(patched.spec?.leaseDurationSeconds, 20);

    const list = await coordination.listNamespacedLease({ namespace: NS });
    assert.equal(list.apiVersion, 'coordination.k8s.io/v1');
    assert.equal(list.kind, 'LeaseList');
    assert.deepEqual(
      list.items.map((l) => l.metadata?.name),
      ['typed'],
    );

    const deleted = await coordination.deleteNamespacedLease({ name: 'typed', namespace: NS });
    assert.equal(deleted.kind, 'Status');
    assert.equal(deleted.status, 'Success');
    const missing = await failure(coordination.readNamespacedLease({ name: 'typed', namespace: NS }));
    assert.equal(missing.code, 404);
    assert.equal(missing.status.reason, 'NotFound');
    assert.equal(missing.status.message, 'leases.coordination.k8s.io "typed" not found');
  });

  it('CoreV1Api: create, read, replace, patch, list and delete a ConfigMap', async () => {
    const created = await core.createNamespacedConfigMap({
      namespace: NS,
      body: { metadata: { name: 'typed', labels: { app: 'x' } }, data: { a: '1' } },
    });
    assert.equal(created.kind, 'ConfigMap');
    assert.deepEqual(created.data, { a: '1' });
    const read = await core.readNamespacedConfigMap({ name: 'typed', namespace: NS });
    read.data = { ...read.data, b: '2' };
    const replaced = await core.replaceNamespacedConfigMap({ name: 'typed', namespace: NS, body: read });
    assert.deepEqual(replaced.data, { a: '1', b: '2' });
    const patched = await core.patchNamespacedConfigMap(
      { name: 'typed', namespace: NS, body: { data: { a: null, c: '3' } } },
      merge,
    );
    assert.deepEqual(patched.data, { b: '2', c: '3' });
    const list = await core.listNamespacedConfigMap({ namespace: NS, labelSelector: 'app=x' });
    assert.deepEqual(
      list.items.map((c) => c.metadata?.name),
      ['typed'],
    );
    const dup = await failure(core.createNamespacedConfigMap({ namespace: NS, body: { metadata: { name: 'typed' } } }));
    assert.equal(dup.code, 409);
    assert.equal(dup.status.reason, 'AlreadyExists');
    await core.deleteNamespacedConfigMap({ name: 'typed', namespace: NS });
    assert.equal((await failure(core.readNamespacedConfigMap({ name: 'typed', namespace: NS }))).code, 404);
  });

  it('an informer on ConfigMaps sees add, update and delete', async () => {
    const informer = makeInformer<V1ConfigMap>(kc, `/api/v1/namespaces/${NS}/configmaps`, () =>
      core.listNamespacedConfigMap({ namespace: NS }),
    );
    const seen: string[] = [];
    informer.on('add', (cm) => seen.push(`add ${cm.metadata?.name} ${cm.data?.v}`));
    informer.on('update', (cm) => seen.push(`update ${cm.metadata?.name} ${cm.data?.v}`));
    informer.on('delete', (cm) => seen.push(`delete ${cm.metadata?.name}`));
    const errors: unknown[] = [];
    informer.on('error', (e) => errors.push(e));
    await informer.start();
    try {
      await core.createNamespacedConfigMap({ namespace: NS, body: { metadata: { name: 'inf' }, data: { v: '1' } } });
      await eventually(() => seen.includes('add inf 1'), 'the add');
      await core.patchNamespacedConfigMap({ name: 'inf', namespace: NS, body: { data: { v: '2' } } }, merge);
      await eventually(() => seen.includes('update inf 2'), 'the update');
      assert.equal(informer.get('inf', NS)?.data?.v, '2');
      await core.deleteNamespacedConfigMap({ name: 'inf', namespace: NS });
      await eventually(() => seen.includes('delete inf'), 'the delete');
      assert.deepEqual(seen, ['add inf 1', 'update inf 2', 'delete inf']);
      assert.equal(informer.get('inf', NS), undefined);
      assert.deepEqual(errors, []);
    } finally {
      await informer.stop();
    }
  });

  it('leader election on a Lease: acquire, renew, conflicts for a rival, take-over after expiry', async () => {
    // client-node 1.x ships no leader election helper; this is client-go's loop
    // (tryAcquireOrRenew) written against the typed client.
    const LEASE = 'leader';
    const DURATION_S = 2;
    const isConflict = (e: unknown) => e instanceof ApiException && e.code === 409;
    const renewMillis = (l: V1Lease) => new Date(String(l.spec?.renewTime)).getTime();

    async function tryAcquireOrRenew(id: string): Promise<'acquired' | 'renewed' | 'held' | 'conflict'> {
      let current: V1Lease;
      try {
        current = await coordination.readNamespacedLease({ name: LEASE, namespace: NS });
      } catch (e) {
        if (!(e instanceof ApiException && e.code === 404)) throw e;
        try {
          await coordination.createNamespacedLease({
            namespace: NS,
            body: {
              metadata: { name: LEASE },
              spec: {
                holderIdentity: id,
                leaseDurationSeconds: DURATION_S,
                acquireTime: new V1MicroTime(),
                renewTime: new V1MicroTime(),
                leaseTransitions: 0,
              },
            },
          });
          return 'acquired';
        } catch (err) {
          if (isConflict(err)) return 'conflict';
          throw err;
        }
      }
      const spec = current.spec ?? {};
      const mine = spec.holderIdentity === id;
      const expired = renewMillis(current) + (spec.leaseDurationSeconds ?? 0) * 1000 < Date.now();
      if (!mine && !expired) return 'held';
      current.spec = mine
        ? { ...spec, renewTime: new V1MicroTime() }
        : {
            ...spec,
            holderIdentity: id,
            acquireTime: new V1MicroTime(),
            renewTime: new V1MicroTime(),
            leaseTransitions: (spec.leaseTransitions ?? 0) + 1,
          };
      try {
        await coordination.replaceNamespacedLease({ name: LEASE, namespace: NS, body: current });
        return mine ? 'renewed' : 'acquired';
      } catch (err) {
        if (isConflict(err)) return 'conflict';
        throw err;
      }
    }

    assert.equal(await tryAcquireOrRenew('a'), 'acquired');
    let renewing = true;
    let renewals = 0;
    const renewer = (async () => {
      while (renewing) {
        await sleep(250);
        if (!renewing) break;
        assert.equal(await tryAcquireOrRenew('a'), 'renewed');
        renewals++;
      }
    })();
    try {
      // While a renews, b finds the lease held, ...
      assert.equal(await tryAcquireOrRenew('b'), 'held');
      // ... a create races with a's lease (409 AlreadyExists), ...
      const exists = await failure(
        coordination.createNamespacedLease({ namespace: NS, body: { metadata: { name: LEASE }, spec: {} } }),
      );
      assert.equal(exists.code, 409);
      assert.equal(exists.status.reason, 'AlreadyExists');
      // ... and a take-over from a copy that a renewal has since changed fails (409 Conflict).
      const seenByB = await coordination.readNamespacedLease({ name: LEASE, namespace: NS });
      const before = renewals;
      await eventually(() => renewals > before, "a's next renewal");
      seenByB.spec = { ...seenByB.spec, holderIdentity: 'b', renewTime: new V1MicroTime() };
      const conflict = await failure(
        coordination.replaceNamespacedLease({ name: LEASE, namespace: NS, body: seenByB }),
      );
      assert.equal(conflict.code, 409);
      assert.equal(conflict.status.reason, 'Conflict');
      assert.equal(
        conflict.status.message,
        `Operation cannot be fulfilled on leases.coordination.k8s.io "${LEASE}": the object has been modified; please apply your changes to the latest version and try again`,
      );
      assert.equal((await coordination.readNamespacedLease({ name: LEASE, namespace: NS })).spec?.holderIdentity, 'a');
    } finally {
      renewing = false;
      await renewer;
    }

    // a stopped renewing: b takes over once the lease expired, not before.
    const lastRenew = renewMillis(await coordination.readNamespacedLease({ name: LEASE, namespace: NS }));
    let outcome = await tryAcquireOrRenew('b');
    while (outcome === 'held') {
      await sleep(200);
      outcome = await tryAcquireOrRenew('b');
    }
    assert.equal(outcome, 'acquired');
    assert.ok(Date.now() >= lastRenew + DURATION_S * 1000, 'took over only after expiry');
    const taken = await coordination.readNamespacedLease({ name: LEASE, namespace: NS });
    assert.equal(taken.spec?.holderIdentity, 'b');
    assert.equal(taken.spec?.leaseTransitions, 1);
    assert.equal(taken.spec?.leaseDurationSeconds, DURATION_S);
    // The former holder now finds the lease held by b.
    assert.equal(await tryAcquireOrRenew('a'), 'held');
    assert.equal(await tryAcquireOrRenew('b'), 'renewed');
  });
});

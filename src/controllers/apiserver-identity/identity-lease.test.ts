import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { apiDomain, ORCH_DOMAIN } from '../../apis/api-domain.js';
import type { Lease } from '../../apis/coordination/lease.js';
import { StatusError } from '../../apis/meta/status.js';
import { alwaysAllow } from '../../authz/index.js';
import { FakeTime } from '../../client/leaderelection/testing/fake-election-clock.js';
import { registryFixture } from '../../registry/resource-set/testing/registry-fixture.js';
import { frozenUser } from '../controller-client.js';
import { apiServerId, identityLeaseSelector } from './apiserver-id.js';
import { IdentityLeaseController } from './identity-lease-controller.js';
import { IdentityLeaseGc, isLeaseExpired } from './identity-lease-gc.js';

const identity = {
  user: frozenUser({ name: 'system:apiserver', groups: ['system:masters'] }),
  manager: 'orch-apiserver',
};

async function setup() {
  const f = await registryFixture();
  await f.createNamespace('orch-system');
  const time = new FakeTime();
  const ctx = f.ctx('orch-system');
  const leases = f.registry('leases');
  const read = async (name: string): Promise<Lease | undefined> => {
    try {
      return (await leases.get(ctx, name, {})) as Lease;
    } catch (e) {
      if (e instanceof StatusError && e.code === 404) return undefined;
      throw e;
    }
  };
  return { f, time, ctx, leases, read };
}

describe('API server identity', () => {
  it('is apiserver-<base32 of sha256(length-prefixed host and component)>', () => {
    // Computed independently: sha256(u16(len) host u16(len) name)[:16], base32 lower, no padding.
    assert.equal(apiServerId('test-server-a', apiDomain('k8s.io')), 'apiserver-tcwjsvs6hjq4qbwzx5rvp5fsqe');
    assert.equal(apiServerId('node-1', ORCH_DOMAIN), 'apiserver-zvfbogxo2xoyur5un7whp4xtae');
    assert.equal(identityLeaseSelector(apiDomain('k8s.io')), 'apiserver.kubernetes.io/identity=kube-apiserver');
    assert.equal(identityLeaseSelector(ORCH_DOMAIN), 'apiserver.orch.io/identity=orch-apiserver');
  });
});

describe('IdentityLeaseController', () => {
  it('creates the identity lease with labels, then renews it every 10 s', async () => {
    const { f, time, read } = await setup();
    const stop = new AbortController();
    const id = apiServerId('node-1', ORCH_DOMAIN);
    const controller = new IdentityLeaseController({
      resources: f.resources,
      authorizer: alwaysAllow,
      identity,
      domain: ORCH_DOMAIN,
      leaseName: id,
      holderIdentity: `${id}_uuid-1`,
      hostname: 'node-1',
      signal: stop.signal,
      clock: time.view(),
    });
    const running = controller.run();
    await time.advance(0);
    const created = (await read(id))!;
    assert.deepEqual(created.metadata.labels, {
      'apiserver.orch.io/identity': 'orch-apiserver',
      'orch.io/hostname': 'node-1',
    });
    assert.deepEqual(created.spec, {
      holderIdentity: `${id}_uuid-1`,
      leaseDurationSeconds: 3600,
      renewTime: '2025-01-01T00:00:00.000000Z',
    });
    assert.equal(created.metadata.managedFields?.[0].manager, 'orch-apiserver');
    await time.advance(10_500);
    const renewed = Date.parse((await read(id))!.spec!.renewTime!);
    assert.ok(renewed >= Date.parse('2025-01-01T00:00:10Z') && renewed <= Date.parse('2025-01-01T00:00:10.400Z'));
    stop.abort();
    await running;
  });

  it('keeps what others wrote on a conflict, and creates the lease again when it was deleted', async () => {
    const { f, time, read, leases, ctx } = await setup();
    const stop = new AbortController();
    const controller = new IdentityLeaseController({
      resources: f.resources,
      authorizer: alwaysAllow,
      identity,
      domain: ORCH_DOMAIN,
      leaseName: 'apiserver-x',
      holderIdentity: 'apiserver-x_1',
      hostname: 'h',
      signal: stop.signal,
      clock: time.view(),
    });
    await controller.sync();
    const mine = (await read('apiserver-x'))!;
    await leases.update(
      ctx,
      'apiserver-x',
      {
        retryOnConflict: false,
        compute: () => ({ ...mine, metadata: { ...mine.metadata, annotations: { note: 'kept' } } }),
      },
      { dryRun: false },
    );
    await time.advance(10_000);
    await controller.sync();
    const after = (await read('apiserver-x'))!;
    assert.equal(after.metadata.annotations?.note, 'kept');
    assert.equal(after.spec?.renewTime, '2025-01-01T00:00:10.000000Z');
    await leases.delete(ctx, 'apiserver-x', { dryRun: false });
    await controller.sync();
    assert.equal((await read('apiserver-x'))?.spec?.holderIdentity, 'apiserver-x_1');
    stop.abort();
  });
});

describe('IdentityLeaseGc', () => {
  it('deletes expired API server identity leases only', async () => {
    const { f, time, leases, ctx, read } = await setup();
    const lease = (name: string, renewTime: string | undefined, labels: Record<string, string>): Lease => ({
      apiVersion: 'coordination.orch.io/v1',
      kind: 'Lease',
      metadata: { name, namespace: 'orch-system', labels },
      spec: { holderIdentity: name, leaseDurationSeconds: 3600, ...(renewTime ? { renewTime } : {}) },
    });
    const ours = { 'apiserver.orch.io/identity': 'orch-apiserver' };
    for (const l of [
      lease('apiserver-expired', '2024-12-31T22:59:59.000000Z', ours),
      lease('apiserver-fresh', '2024-12-31T23:30:00.000000Z', ours),
      lease('apiserver-no-renew-time', undefined, ours),
      lease('other-component', '2024-12-31T20:00:00.000000Z', { 'apiserver.orch.io/identity': 'someone-else' }),
      lease('unlabelled', '2024-12-31T20:00:00.000000Z', {}),
    ]) {
      await leases.create(ctx, l, { dryRun: false });
    }
    const stop = new AbortController();
    const gc = new IdentityLeaseGc({
      resources: f.resources,
      authorizer: alwaysAllow,
      identity,
      domain: ORCH_DOMAIN,
      signal: stop.signal,
      clock: time.view(),
    });
    assert.deepEqual((await gc.gc()).sort(), ['apiserver-expired', 'apiserver-no-renew-time']);
    for (const name of ['apiserver-fresh', 'other-component', 'unlabelled']) assert.ok(await read(name), name);
    assert.deepEqual(await gc.gc(), []);
    stop.abort();
  });

  it('expiry is renewTime + leaseDurationSeconds before now', () => {
    const now = new Date('2025-01-01T01:00:00Z');
    const l = (renewTime?: string, leaseDurationSeconds?: number): Lease => ({
      apiVersion: 'coordination.orch.io/v1',
      kind: 'Lease',
      metadata: {},
      spec: { renewTime, leaseDurationSeconds },
    });
    assert.equal(isLeaseExpired(l('2025-01-01T00:00:00.000000Z', 3600), now), false);
    assert.equal(isLeaseExpired(l('2024-12-31T23:59:59.999000Z', 3600), now), true);
    assert.equal(isLeaseExpired(l(undefined, 3600), now), true);
    assert.equal(isLeaseExpired(l('2025-01-01T00:30:00.000000Z', undefined), now), true);
  });
});

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Registry } from 'prom-client';
import { apiDomain, ORCH_DOMAIN } from '../apis/api-domain.js';
import { alwaysAllow } from '../authz/index.js';
import { controllerIdentity, informerIdentity } from '../controllers/controller-client.js';
import type { ControllerDescriptor } from '../controllers/controller-descriptor.js';
import { InProcessApiClient } from '../controllers/in-process-api-client.js';
import { waitFor } from '../controllers/testing/controller-fixture.js';
import { registryFixture } from '../registry/resource-set/testing/registry-fixture.js';
import { systemClock } from '../util/clock.js';
import { silentLogger } from '../util/logger.js';
import { type ControllerManagerOptions, startControllerManager } from './controller-manager.js';

/** A controller that only records where it runs. */
function probe(name: string, where: Map<string, Set<string>>, component: string): ControllerDescriptor {
  return {
    name,
    serviceAccount: `${name}-sa`,
    enabledByDefault: true,
    async run(ctx) {
      const set = where.get(name) ?? new Set<string>();
      where.set(name, set);
      set.add(component);
      await new Promise((r) => ctx.signal.addEventListener('abort', r, { once: true }));
      set.delete(component);
    },
  };
}

const election = {
  leaderElect: true,
  leaseDuration: '2s',
  renewDeadline: '1500ms',
  retryPeriod: '200ms',
  resourceLock: 'leases',
  resourceName: 'test-controller-manager',
  resourceNamespace: 'orch-system',
};

describe('controller manager run loop', () => {
  it('runs controllers on one leader only, and the other takes over after a stop; migrated ones follow their own lease', async () => {
    const f = await registryFixture();
    await f.createNamespace('orch-system');
    const where = new Map<string, Set<string>>();
    const root = new InProcessApiClient(f.resources, informerIdentity(ORCH_DOMAIN), alwaysAllow);
    const options = (component: string, leaseName: string): ControllerManagerOptions => ({
      component,
      root,
      clientFor: async (c) =>
        new InProcessApiClient(f.resources, controllerIdentity(c.serviceAccount, ORCH_DOMAIN), alwaysAllow),
      controllers: [probe(`own-${component}`, where, component), probe('moving', where, component)],
      configMembers: {},
      minResyncPeriodMs: 60_000,
      controllerStartIntervalMs: 0,
      leaderElection: { ...election, resourceName: leaseName },
      migration: { leaderName: 'migration-lease', migrated: new Set(['moving']) },
      metrics: new Registry(),
      domain: ORCH_DOMAIN,
      clock: systemClock,
      logger: silentLogger,
    });
    const a = startControllerManager(options('kcm', 'kcm-lease'));
    const b = startControllerManager(options('ccm', 'ccm-lease'));
    try {
      // Each component leads its own lease; exactly one of them runs the migrated controller.
      await waitFor('own controllers', () => where.get('own-kcm')?.size === 1 && where.get('own-ccm')?.size === 1);
      await waitFor('moving runs once', () => where.get('moving')?.size === 1);
      const first = [...(where.get('moving') ?? [])][0];
      const [leader, other] = first === 'kcm' ? [a, b] : [b, a];
      for (let i = 0; i < 10; i++) {
        assert.equal(where.get('moving')?.size, 1);
        await new Promise((r) => setTimeout(r, 50));
      }
      assert.deepEqual(leader.running().includes('moving'), true);
      assert.deepEqual(other.running().includes('moving'), false);
      await leader.stop();
      await waitFor('moved to the other component', () => other.running().includes('moving'), 10_000);
      assert.equal(where.get('moving')?.size, 1);
    } finally {
      await a.stop();
      await b.stop();
    }
  });

  it('publishes running_managed_controllers', async () => {
    const f = await registryFixture();
    const where = new Map<string, Set<string>>();
    const metrics = new Registry();
    const root = new InProcessApiClient(f.resources, informerIdentity(ORCH_DOMAIN), alwaysAllow);
    const cm = startControllerManager({
      component: 'kube-controller-manager',
      root,
      clientFor: async () => root,
      controllers: [probe('x-controller', where, 'kcm')],
      configMembers: {},
      minResyncPeriodMs: 60_000,
      controllerStartIntervalMs: 0,
      leaderElection: { ...election, leaderElect: false },
      metrics,
      domain: ORCH_DOMAIN,
      clock: systemClock,
      logger: silentLogger,
    });
    try {
      await waitFor('running', () => cm.running().includes('x-controller'));
      const text = await metrics.metrics();
      assert.match(
        text,
        /running_managed_controllers\{controller_name="x-controller",manager="kube-controller-manager"\} 1/,
      );
    } finally {
      await cm.stop();
    }
    assert.doesNotMatch(await metrics.metrics(), /controller_name="x-controller"/);
  });

  it("names --api-domain when the server does not serve the leases of the manager's domain", async () => {
    const f = await registryFixture();
    const root = new InProcessApiClient(f.resources, informerIdentity(ORCH_DOMAIN), alwaysAllow);
    const k8s = apiDomain('k8s.io');
    assert.throws(
      () =>
        startControllerManager({
          component: 'kube-controller-manager',
          root,
          clientFor: async () => root,
          controllers: [probe('x-controller', new Map(), 'kcm')],
          configMembers: {},
          minResyncPeriodMs: 60_000,
          controllerStartIntervalMs: 0,
          leaderElection: election,
          metrics: new Registry(),
          domain: k8s,
          clock: systemClock,
          logger: silentLogger,
        }),
      {
        message:
          'leader election needs coordination.k8s.io/v1 leases, which the API server does not serve: ' +
          "is its --api-domain k8s.io, as this controller manager's is?",
      },
    );
  });
});

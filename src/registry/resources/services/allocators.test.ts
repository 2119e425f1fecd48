import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { parseCIDR } from '../../../apis/core/ip-address.js';
import type { Service } from '../../../apis/core/service-types.js';
import { openEtcdStore } from '../../../storage/etcd/etcd-store.js';
import { openLmdbStore } from '../../../storage/lmdb/lmdb-store.js';
import type { Store } from '../../../storage/store.js';
import { type EtcdServerHandle, etcdSkipReason, startEtcdServer } from '../../../storage/testing/etcd-server.js';
import {
  AllocatorNotReadyError,
  AlreadyAllocatedError,
  NotInRangeError,
  RangeFullError,
  RangeMismatchError,
} from './allocation-errors.js';
import { ServiceAllocationRepair } from './allocation-repair.js';
import { ClusterIPAllocator } from './cluster-ip-allocator.js';
import { NodePortAllocator } from './node-port-allocator.js';

/** A backend for the suite: `open()` gives a store client; clients of one backend share data. */
interface Backend {
  open(): Promise<Store>;
  close(): Promise<void>;
}

function ipAllocator(store: Store, cidr: string, key = '/registry/ranges/serviceips', random?: () => number) {
  return new ClusterIPAllocator({ store, key, network: parseCIDR(cidr)!, random });
}

function portAllocator(store: Store, key = '/registry/ranges/servicenodeports') {
  return new NodePortAllocator({ store, key, range: { base: 30000, size: 2768 } });
}

async function ready(a: ClusterIPAllocator | NodePortAllocator): Promise<void> {
  assert.equal(await a.allocator.replace(a.allocator.emptyBitmap(), undefined), true);
}

function service(name: string, spec: Service['spec']): Service {
  return { apiVersion: 'v1', kind: 'Service', metadata: { name, namespace: 'default' }, spec };
}

function allocatorSuite(name: string, backend: () => Backend) {
  describe(`service allocators on ${name}`, () => {
    let b: Backend;
    const prefix = () => `/t-${randomBytes(4).toString('hex')}`;
    before(() => {
      b = backend();
    });
    after(() => b.close());

    it('hand out nothing before the state exists, then requested and free addresses', async () => {
      const store = await b.open();
      const a = ipAllocator(store, '10.0.0.0/24', `${prefix()}/serviceips`);
      await assert.rejects(a.allocateNext(), AllocatorNotReadyError);
      await assert.rejects(a.allocateNext(), {
        message: 'cannot allocate resources of type serviceipallocations at this time',
      });
      await ready(a);
      await a.allocate('10.0.0.10');
      await assert.rejects(a.allocate('10.0.0.10'), AlreadyAllocatedError);
      await assert.rejects(a.allocate('10.0.0.10'), { message: 'provided IP is already allocated' });
      await assert.rejects(a.allocate('10.0.1.1'), {
        message: 'the provided IP (10.0.1.1) is not in the valid range. The range of valid IPs is 10.0.0.0/24',
      });
      // Neither the network nor the broadcast address is ever handed out.
      await assert.rejects(a.allocate('10.0.0.0'), NotInRangeError);
      await assert.rejects(a.allocate('10.0.0.255'), NotInRangeError);
      assert.equal(await a.has('10.0.0.10'), true);
      await a.release(['10.0.0.10']);
      assert.equal(await a.has('10.0.0.10'), false);
      await a.allocate('10.0.0.10');
    });

    it('pick from the upper band first and run out cleanly', async () => {
      const store = await b.open();
      const a = ipAllocator(store, '10.0.0.0/24', `${prefix()}/serviceips`, () => 0);
      await ready(a);
      // The static band of a /24 is its first 16 addresses: 10.0.0.1-16.
      assert.equal(await a.allocateNext(), '10.0.0.17');
      const small = ipAllocator(store, '10.1.0.0/29', `${prefix()}/serviceips`);
      await ready(small);
      const got = new Set<string>();
      for (let i = 0; i < 6; i++) got.add(await small.allocateNext());
      assert.deepEqual([...got].sort(), ['10.1.0.1', '10.1.0.2', '10.1.0.3', '10.1.0.4', '10.1.0.5', '10.1.0.6']);
      await assert.rejects(small.allocateNext(), RangeFullError);
    });

    it('refuse a state stored for another range', async () => {
      const store = await b.open();
      const key = `${prefix()}/serviceips`;
      await ready(ipAllocator(store, '10.0.0.0/24', key));
      await assert.rejects(ipAllocator(store, '10.9.0.0/24', key).allocateNext(), RangeMismatchError);
    });

    it('never hand out an address twice to concurrent writers of two servers', async () => {
      const key = `${prefix()}/serviceips`;
      const [s1, s2] = [await b.open(), await b.open()];
      const a1 = ipAllocator(s1, '10.0.0.0/24', key);
      const a2 = ipAllocator(s2, '10.0.0.0/24', key);
      await ready(a1);
      // Both servers' caches start from the same state, then race.
      await a1.allocate('10.0.0.2');
      await a2.allocate('10.0.0.3');
      const results = await Promise.all(Array.from({ length: 60 }, (_, i) => (i % 2 ? a1 : a2).allocateNext()));
      assert.equal(new Set(results).size, 60);
      assert.ok(!results.includes('10.0.0.2') && !results.includes('10.0.0.3'));
      assert.equal((await a1.allocator.read()).count, 62);
    });

    it('reserve a service’s node ports all or nothing', async () => {
      const store = await b.open();
      const p = portAllocator(store, `${prefix()}/servicenodeports`);
      await ready(p);
      const twice = await p.allocateMany({ specific: [30005, 30005], next: 1 });
      assert.equal(twice.ok, false);
      assert.equal(!twice.ok && twice.index, 1);
      assert.equal(!twice.ok && twice.error.message, 'provided port is already allocated');
      assert.equal(await p.has(30005), false);
      const out = await p.allocateMany({ specific: [40000], next: 0 });
      assert.equal(
        !out.ok && out.error.message,
        'provided port is not in the valid range. The range of valid ports is 30000-32767',
      );
      const ok = await p.allocateMany({ specific: [30005], next: 2 });
      assert.ok(ok.ok);
      assert.equal(ok.allocated.length, 3);
      assert.equal(new Set(ok.allocated).size, 3);
      for (const port of ok.allocated) assert.equal(await p.has(port), true);
      await p.release(ok.allocated);
      assert.equal((await p.allocator.read()).count, 0);
    });

    it('repair from the stored services, keeping apparent leaks for two more runs', async () => {
      const store = await b.open();
      const base = prefix();
      const ip = ipAllocator(store, '10.0.0.0/24', `${base}/serviceips`);
      const ports = portAllocator(store, `${base}/servicenodeports`);
      let services: Service[] = [
        service('a', { type: 'ClusterIP', clusterIP: '10.0.0.5', clusterIPs: ['10.0.0.5'] }),
        service('b', {
          type: 'NodePort',
          clusterIP: '10.0.0.6',
          clusterIPs: ['10.0.0.6'],
          ports: [{ port: 80, nodePort: 30080 }],
        }),
        service('c', { type: 'ClusterIP', clusterIP: 'None', clusterIPs: ['None'] }),
        service('d', { type: 'ExternalName', externalName: 'x.example.com' }),
        service('dup', { type: 'ClusterIP', clusterIP: '10.0.0.5', clusterIPs: ['10.0.0.5'] }),
        service('out', { type: 'ClusterIP', clusterIP: '10.9.9.9', clusterIPs: ['10.9.9.9'] }),
      ];
      const warnings: string[] = [];
      const repair = new ServiceAllocationRepair({
        clusterIPs: [ip],
        nodePorts: ports,
        services: async () => services,
        logger: { info() {}, warn: (m) => warnings.push(m), error() {} },
      });
      // No state at all: it is created from the services.
      await repair.runOnce();
      assert.equal(await ip.has('10.0.0.5'), true);
      assert.equal(await ip.has('10.0.0.6'), true);
      assert.equal(await ports.has(30080), true);
      assert.equal((await ip.allocator.read()).count, 2);
      assert.ok(warnings.some((w) => w.includes('multiple services')));
      assert.ok(warnings.some((w) => w.includes('outside the configured range')));
      // A value taken for a write in flight (no service yet) survives two repairs, not three.
      await ip.allocate('10.0.0.7');
      await repair.runOnce();
      await repair.runOnce();
      assert.equal(await ip.has('10.0.0.7'), true);
      await repair.runOnce();
      assert.equal(await ip.has('10.0.0.7'), false);
      // A service deleted meanwhile frees its values the same way.
      services = services.filter((s) => s.metadata.name !== 'b');
      for (let i = 0; i < 3; i++) await repair.runOnce();
      assert.equal(await ip.has('10.0.0.6'), false);
      assert.equal(await ports.has(30080), false);
    });

    it('repair rewrites a state stored for another range', async () => {
      const store = await b.open();
      const key = `${prefix()}/serviceips`;
      const old = ipAllocator(store, '10.0.0.0/24', key);
      await ready(old);
      await old.allocate('10.0.0.9');
      const ip = ipAllocator(store, '10.0.0.0/23', key);
      const repair = new ServiceAllocationRepair({
        clusterIPs: [ip],
        nodePorts: portAllocator(store, `${key}-ports`),
        services: async () => [service('a', { type: 'ClusterIP', clusterIP: '10.0.1.9', clusterIPs: ['10.0.1.9'] })],
      });
      await repair.runOnce();
      assert.equal(await ip.has('10.0.1.9'), true);
      // The old range's value is in the new range too: kept as a possible leak.
      assert.equal(await ip.has('10.0.0.9'), true);
      assert.equal(await ip.allocator.read().then((bm) => bm.count), 2);
    });
  });
}

allocatorSuite('LMDB', () => {
  const dir = mkdtempSync(join(tmpdir(), 'orch-alloc-'));
  let store: Promise<Store> | undefined;
  return {
    // One store: two allocators on it are two servers' allocators with separate caches.
    open: () => {
      store ??= openLmdbStore({ path: join(dir, 'db') });
      return store;
    },
    async close() {
      await (await store)?.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
});

describe('etcd', { skip: etcdSkipReason() }, () => {
  let server: EtcdServerHandle;
  const stores: Store[] = [];
  before(async () => {
    server = await startEtcdServer();
  });
  after(async () => {
    for (const s of stores) await s.close();
    await server?.dispose();
  });
  allocatorSuite('etcd (a client per server)', () => ({
    async open() {
      const store = await openEtcdStore({ endpoints: [server.endpoint], keyNamespace: '/alloc-test' });
      stores.push(store);
      return store;
    },
    async close() {},
  }));
});

import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { type RunningServer, type ServerOptions, startServer } from '../../src/server/start-server.js';
import { type EtcdServerHandle, etcdSkipReason, startEtcdServer } from '../../src/storage/testing/etcd-server.js';
import { apiOf } from '../support/api.js';

// The allocation state lives in the store: a restarted server repairs it from the stored
// Services, and several servers on one etcd never hand out the same address or port.

const BASE = '/api/v1/namespaces/default/services';
// biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary JSON
type Obj = Record<string, any>;

function service(name: string, type: string, spec: Obj = {}): Obj {
  return { apiVersion: 'v1', kind: 'Service', metadata: { name }, spec: { type, ports: [{ port: 80 }], ...spec } };
}

async function start(
  o: ServerOptions & { dataDir: string },
): Promise<{ server: RunningServer; api: ReturnType<typeof apiOf>['admin'] }> {
  const server = await startServer({ securePort: 0, bindAddress: '127.0.0.1', advertiseAddress: '192.0.2.10', ...o });
  return { server, api: apiOf({ url: server.url, admin: server.admin! }).admin };
}

/** Every cluster IP and node port the stored services hold, checked for duplicates. */
async function held(api: ReturnType<typeof apiOf>['admin']): Promise<{ ips: string[]; ports: number[] }> {
  const items = (await api('GET', BASE)).json().items as Obj[];
  const ips = items.map((i) => i.spec.clusterIP).filter((ip) => ip && ip !== 'None');
  const ports = items.flatMap((i) => (i.spec.ports ?? []).map((p: Obj) => p.nodePort).filter(Boolean));
  assert.equal(new Set(ips).size, ips.length, `duplicate cluster IP in ${ips}`);
  assert.equal(new Set(ports).size, ports.length, `duplicate node port in ${ports}`);
  return { ips, ports };
}

describe('Service allocations across restarts', () => {
  let dataDir: string;
  before(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'orch-svc-restart-'));
  });
  after(() => rm(dataDir, { recursive: true, force: true }));

  it('repairs a lost allocation state from the stored services at start', async () => {
    // A small range makes a reused address likely if the repair did not happen.
    const flags = { dataDir, serviceClusterIPRange: '10.0.0.0/26', serviceNodePortRange: '30000-30063' };
    const first = await start(flags);
    for (let i = 0; i < 20; i++) {
      const r = await first.api('POST', BASE, { body: service(`s-${i}`, i % 2 ? 'NodePort' : 'ClusterIP') });
      assert.equal(r.status, 201, r.text);
    }
    const before = await held(first.api);
    // Both allocation states disappear (as if lost), then the server restarts.
    await first.server.store.delete('/registry/ranges/serviceips');
    await first.server.store.delete('/registry/ranges/servicenodeports');
    await first.server.close();

    const second = await start(flags);
    try {
      for (let i = 20; i < 50; i++) {
        const r = await second.api('POST', BASE, { body: service(`s-${i}`, i % 2 ? 'NodePort' : 'ClusterIP') });
        assert.equal(r.status, 201, r.text);
      }
      const after = await held(second.api);
      for (const ip of before.ips) assert.ok(after.ips.includes(ip));
      // The addresses and ports held before the restart are still taken.
      const taken = await second.api('POST', BASE, { body: service('dup', 'ClusterIP', { clusterIP: before.ips[3] }) });
      assert.equal(taken.status, 422, taken.text);
      const takenPort = await second.api('POST', BASE, {
        body: service('dup-port', 'NodePort', { ports: [{ port: 80, nodePort: before.ports[0] }] }),
      });
      assert.equal(takenPort.status, 422, takenPort.text);
    } finally {
      await second.server.close();
    }
  });

  it('rebuilds the state for a new range and keeps the addresses services hold', async () => {
    const wider = await start({ dataDir, serviceClusterIPRange: '10.0.0.0/24', serviceNodePortRange: '30000-32767' });
    try {
      const { ips } = await held(wider.api);
      assert.ok(ips.length >= 50);
      for (const ip of ips.slice(0, 5)) {
        const r = await wider.api('POST', BASE, {
          body: service(`again-${ip.replaceAll('.', '-')}`, 'ClusterIP', { clusterIP: ip }),
        });
        assert.equal(r.status, 422, r.text);
        assert.match(r.json().details.causes[0].message, /provided IP is already allocated/);
      }
      const fresh = await wider.api('POST', BASE, { body: service('fresh', 'ClusterIP', { clusterIP: '10.0.0.130' }) });
      assert.equal(fresh.status, 201, fresh.text);
    } finally {
      await wider.server.close();
    }
  });
});

describe('dual-stack Service ranges', () => {
  let dataDir: string;
  before(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'orch-svc-dual-'));
  });
  after(() => rm(dataDir, { recursive: true, force: true }));

  it('give PreferDualStack services one address per family and SingleStack ones the primary family', async () => {
    const { server, api } = await start({ dataDir, serviceClusterIPRange: '10.0.0.0/24,fd00::/108' });
    try {
      const dual = await api('POST', BASE, {
        body: service('dual', 'ClusterIP', { ipFamilyPolicy: 'PreferDualStack' }),
      });
      assert.equal(dual.status, 201, dual.text);
      const spec = dual.json().spec;
      assert.deepEqual(spec.ipFamilies, ['IPv4', 'IPv6']);
      assert.match(spec.clusterIPs[0], /^10\.0\.0\.\d+$/);
      assert.match(spec.clusterIPs[1], /^fd00::/);
      const single = await api('POST', BASE, { body: service('single', 'ClusterIP') });
      assert.deepEqual(single.json().spec.ipFamilies, ['IPv4']);
      const v6 = await api('POST', BASE, { body: service('v6', 'ClusterIP', { ipFamilies: ['IPv6'] }) });
      assert.match(v6.json().spec.clusterIP, /^fd00::/);
      const kubernetes = (await api('GET', `${BASE}/kubernetes`)).json();
      assert.equal(kubernetes.spec.clusterIP, '10.0.0.1');
    } finally {
      await server.close();
    }
  });
});

describe('Service allocations with two servers on one etcd', { skip: etcdSkipReason() }, () => {
  let etcd: EtcdServerHandle;
  const dirs: string[] = [];
  before(async () => {
    etcd = await startEtcdServer();
  });
  after(async () => {
    await etcd?.dispose();
    for (const d of dirs) await rm(d, { recursive: true, force: true });
  });

  it('never hand out the same address or port to 50 concurrent creates across both', async () => {
    const prefix = `/orch-${randomBytes(4).toString('hex')}`;
    const open = async () => {
      const dataDir = await mkdtemp(join(tmpdir(), 'orch-svc-etcd-'));
      dirs.push(dataDir);
      return start({
        dataDir,
        storageBackend: 'etcd3',
        etcdServers: [etcd.endpoint],
        etcdPrefix: prefix,
        runControllers: false,
      });
    };
    const a = await open();
    const b = await open();
    try {
      const results = await Promise.all(
        Array.from({ length: 50 }, (_, i) =>
          (i % 2 ? a : b).api('POST', BASE, { body: service(`m-${i}`, i % 3 ? 'NodePort' : 'ClusterIP') }),
        ),
      );
      for (const r of results) assert.equal(r.status, 201, r.text);
      const seenByA = await held(a.api);
      const seenByB = await held(b.api);
      assert.equal(seenByA.ips.length, 51);
      assert.deepEqual([...seenByA.ips].sort(), [...seenByB.ips].sort());
      // A requested address taken through one server is refused through the other.
      const taken = await b.api('POST', BASE, { body: service('other', 'ClusterIP', { clusterIP: seenByA.ips[10] }) });
      assert.equal(taken.status, 422, taken.text);
    } finally {
      await a.server.close();
      await b.server.close();
    }
  });
});

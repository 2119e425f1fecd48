import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { parseCIDR } from '../../../apis/core/ip-address.js';
import type { Service, ServiceSpec } from '../../../apis/core/service-types.js';
import { StatusError } from '../../../apis/meta/status.js';
import { openLmdbStore } from '../../../storage/lmdb/lmdb-store.js';
import type { Store } from '../../../storage/store.js';
import { ClusterIPAllocator } from './cluster-ip-allocator.js';
import { NodePortAllocator } from './node-port-allocator.js';
import { ServiceAllocations } from './service-allocations.js';

function svc(spec: ServiceSpec, name = 'web'): Service {
  return { apiVersion: 'v1', kind: 'Service', metadata: { name, namespace: 'default' }, spec };
}

/** The 422/500 a failed allocation answers, as `code: cause` lines. */
async function refusal(p: Promise<unknown>): Promise<string[]> {
  try {
    await p;
  } catch (e) {
    assert.ok(e instanceof StatusError, String(e));
    const causes = e.details?.causes ?? [];
    return causes.length > 0
      ? causes.map((c) => `${e.code} ${c.field ?? ''}: ${c.message}`)
      : [`${e.code} ${e.message}`];
  }
  assert.fail('expected a refusal');
}

describe('Service allocations (kube alloc.go)', () => {
  let dir: string;
  let store: Store;
  let ipv4: ClusterIPAllocator;
  let ipv6: ClusterIPAllocator;
  let ports: NodePortAllocator;
  let single: ServiceAllocations;
  let dual: ServiceAllocations;

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'orch-svc-alloc-'));
    store = await openLmdbStore({ path: join(dir, 'db') });
    ipv4 = new ClusterIPAllocator({ store, key: '/r/serviceips', network: parseCIDR('10.0.0.0/24')! });
    ipv6 = new ClusterIPAllocator({ store, key: '/r/secondaryserviceips', network: parseCIDR('fd00::/120')! });
    ports = new NodePortAllocator({ store, key: '/r/servicenodeports', range: { base: 30000, size: 2768 } });
    for (const a of [ipv4, ipv6, ports]) await a.allocator.replace(a.allocator.emptyBitmap(), undefined);
    single = new ServiceAllocations({ clusterIPs: [ipv4], nodePorts: ports });
    dual = new ServiceAllocations({ clusterIPs: [ipv4, ipv6], nodePorts: ports });
  });
  after(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('a ClusterIP service gets an address, SingleStack and its family', async () => {
    const s = svc({ type: 'ClusterIP', ports: [{ port: 80, protocol: 'TCP' }] });
    await single.beginCreate(s, { dryRun: false });
    assert.match(s.spec!.clusterIP!, /^10\.0\.0\.\d+$/);
    assert.deepEqual(s.spec!.clusterIPs, [s.spec!.clusterIP]);
    assert.equal(s.spec!.ipFamilyPolicy, 'SingleStack');
    assert.deepEqual(s.spec!.ipFamilies, ['IPv4']);
    assert.equal(await ipv4.has(s.spec!.clusterIP!), true);
    await single.release(s);
    assert.equal(await ipv4.has(s.spec!.clusterIP!), false);
  });

  it('a requested address is honoured once and refused in kube’s words after', async () => {
    const a = svc({ type: 'ClusterIP', clusterIP: '10.0.0.50', clusterIPs: ['10.0.0.50'], ports: [{ port: 80 }] });
    await single.beginCreate(a, { dryRun: false });
    const b = svc({ type: 'ClusterIP', clusterIP: '10.0.0.50', clusterIPs: ['10.0.0.50'], ports: [{ port: 80 }] }, 'b');
    assert.deepEqual(await refusal(single.beginCreate(b, { dryRun: false })), [
      '422 spec.clusterIPs: Invalid value: []string{"10.0.0.50"}: failed to allocate IP 10.0.0.50: provided IP is already allocated',
    ]);
    const c = svc({ type: 'ClusterIP', clusterIP: '10.9.0.1', clusterIPs: ['10.9.0.1'], ports: [{ port: 80 }] }, 'c');
    assert.deepEqual(await refusal(single.beginCreate(c, { dryRun: false })), [
      '422 spec.clusterIPs: Invalid value: []string{"10.9.0.1"}: failed to allocate IP 10.9.0.1: the provided IP (10.9.0.1) is not in the valid range. The range of valid IPs is 10.0.0.0/24',
    ]);
    await single.release(a);
  });

  it('families the cluster does not serve are refused', async () => {
    const s = svc({ type: 'ClusterIP', ipFamilies: ['IPv6'], ports: [{ port: 80 }] });
    assert.deepEqual(await refusal(single.beginCreate(s, { dryRun: false })), [
      '422 spec.ipFamilies[0]: Invalid value: "IPv6": not configured on this cluster',
    ]);
    const r = svc({ type: 'ClusterIP', ipFamilyPolicy: 'RequireDualStack', ports: [{ port: 80 }] });
    assert.deepEqual(await refusal(single.beginCreate(r, { dryRun: false })), [
      '422 spec.ipFamilyPolicy: Invalid value: "RequireDualStack": this cluster is not configured for dual-stack services',
    ]);
  });

  it('dual-stack services get one address per family; a downgrade frees the secondary after the write', async () => {
    const s = svc({ type: 'ClusterIP', ipFamilyPolicy: 'PreferDualStack', ports: [{ port: 80 }] });
    await dual.beginCreate(s, { dryRun: false });
    assert.deepEqual(s.spec!.ipFamilies, ['IPv4', 'IPv6']);
    assert.equal(s.spec!.clusterIPs!.length, 2);
    const v6 = s.spec!.clusterIPs![1];
    assert.equal(await ipv6.has(v6), true);
    const down = structuredClone(s);
    down.spec!.ipFamilyPolicy = 'SingleStack';
    const txn = await dual.beginUpdate(down, s, { dryRun: false });
    assert.deepEqual(down.spec!.clusterIPs, [s.spec!.clusterIP]);
    assert.deepEqual(down.spec!.ipFamilies, ['IPv4']);
    assert.equal(await ipv6.has(v6), true);
    await txn.commit();
    assert.equal(await ipv6.has(v6), false);
    await dual.release(down);
  });

  it('headless selectorless services name both families and hold no address', async () => {
    const s = svc({ type: 'ClusterIP', clusterIP: 'None', clusterIPs: ['None'] });
    await single.beginCreate(s, { dryRun: false });
    assert.equal(s.spec!.ipFamilyPolicy, 'RequireDualStack');
    assert.deepEqual(s.spec!.ipFamilies, ['IPv4', 'IPv6']);
    assert.deepEqual(s.spec!.clusterIPs, ['None']);
  });

  it('NodePort services share a node port per port number and honour requested ones', async () => {
    const s = svc({
      type: 'NodePort',
      ports: [
        { name: 'tcp', port: 53, protocol: 'TCP' },
        { name: 'udp', port: 53, protocol: 'UDP' },
        { name: 'http', port: 80, protocol: 'TCP', nodePort: 30080 },
      ],
    });
    await single.beginCreate(s, { dryRun: false });
    const [tcp, udp, http] = s.spec!.ports!;
    assert.equal(tcp.nodePort, udp.nodePort);
    assert.equal(http.nodePort, 30080);
    assert.equal(await ports.has(tcp.nodePort!), true);
    const clash = svc({ type: 'NodePort', ports: [{ port: 81, nodePort: 30080 }] }, 'clash');
    assert.deepEqual(await refusal(single.beginCreate(clash, { dryRun: false })), [
      '422 spec.ports[0].nodePort: Invalid value: 30080: provided port is already allocated',
    ]);
    // The refused create took nothing, not even its cluster IP.
    assert.equal(clash.spec!.clusterIP === undefined || !(await ipv4.has(clash.spec!.clusterIP)), true);
    const outside = svc({ type: 'NodePort', ports: [{ port: 81, nodePort: 8080 }] }, 'outside');
    assert.deepEqual(await refusal(single.beginCreate(outside, { dryRun: false })), [
      '422 spec.ports[0].nodePort: Invalid value: 8080: provided port is not in the valid range. The range of valid ports is 30000-32767',
    ]);
    // Switching to ClusterIP frees the node ports once the write succeeds.
    const toClusterIP = structuredClone(s);
    toClusterIP.spec!.type = 'ClusterIP';
    for (const p of toClusterIP.spec!.ports!) delete p.nodePort;
    const txn = await single.beginUpdate(toClusterIP, s, { dryRun: false });
    assert.equal(await ports.has(30080), true);
    await txn.commit();
    assert.equal(await ports.has(30080), false);
    assert.equal(await ports.has(tcp.nodePort!), false);
    await single.release(toClusterIP);
  });

  it('a failed write gives back what was taken for it', async () => {
    const s = svc({
      type: 'LoadBalancer',
      externalTrafficPolicy: 'Local',
      allocateLoadBalancerNodePorts: true,
      ports: [{ port: 80 }],
    });
    const txn = await single.beginCreate(s, { dryRun: false });
    const taken = { ip: s.spec!.clusterIP!, node: s.spec!.ports![0].nodePort!, hc: s.spec!.healthCheckNodePort! };
    assert.ok(taken.hc > 0 && taken.node > 0 && taken.node !== taken.hc);
    await txn.revert();
    assert.equal(await ipv4.has(taken.ip), false);
    assert.equal(await ports.has(taken.node), false);
    assert.equal(await ports.has(taken.hc), false);
  });

  it('a dry run changes nothing and answers kube’s placeholders', async () => {
    const before = (await ipv4.allocator.read()).count;
    const s = svc({
      type: 'NodePort',
      ports: [
        { name: 'a', port: 80 },
        { name: 'b', port: 81 },
      ],
    });
    await single.beginCreate(s, { dryRun: true });
    assert.equal(s.spec!.clusterIP, '10.0.0.0');
    assert.deepEqual(
      s.spec!.ports!.map((p) => p.nodePort),
      [32769, 32770],
    );
    assert.equal((await ipv4.allocator.read()).count, before);
    assert.equal((await ports.allocator.read()).count, 0);
  });

  it('ExternalName ↔ ClusterIP allocates and frees', async () => {
    const ext = svc({ type: 'ExternalName', externalName: 'db.example.com' });
    await single.beginCreate(ext, { dryRun: false });
    assert.equal(ext.spec!.clusterIP, undefined);
    const toCluster = svc({ type: 'ClusterIP', ports: [{ port: 80 }] });
    await (await single.beginUpdate(toCluster, ext, { dryRun: false })).commit();
    const ip = toCluster.spec!.clusterIP!;
    assert.equal(await ipv4.has(ip), true);
    const back = svc({ type: 'ExternalName', externalName: 'db.example.com' });
    const txn = await single.beginUpdate(back, toCluster, { dryRun: false });
    assert.equal(await ipv4.has(ip), true);
    await txn.commit();
    assert.equal(await ipv4.has(ip), false);
  });
});

import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { apiDomain } from '../../src/apis/api-domain.js';
import { deploymentController } from '../../src/controllers/deployment/deployment-controller.js';
import { endpointSliceController } from '../../src/controllers/endpointslice/endpointslice-controller.js';
import { replicaSetController } from '../../src/controllers/replicaset/replicaset-controller.js';
import { adminApi, startNodeAgent } from '../../src/controllers/replicaset/testing/workload-fixture.js';
import { type RunningDescriptors, runDescriptors } from '../../src/controllers/testing/run-descriptor.js';
import { type RunningServer, startServer } from '../../src/server/start-server.js';
import { systemClock } from '../../src/util/clock.js';
import { kubectl } from '../support/kubectl.js';

// kubectl 1.32 against a server under the k8s.io profile with the deployment and replicaset
// controllers running in process, and the test playing the node agent (pods become Running and
// Ready as they appear).

const NS = 'default';

describe('kubectl rollout with the deployment controller (k8s.io profile)', () => {
  let dataDir: string;
  let server: RunningServer;
  let controllers: RunningDescriptors;
  let agent: { stop(): Promise<void> };
  const k = (...args: string[]) => kubectl(server.kubeconfigPath ?? '', args);
  const ok = async (...args: string[]) => {
    const r = await k(...args);
    assert.equal(r.code, 0, `kubectl ${args.join(' ')}: ${r.stderr}`);
    return r.stdout;
  };
  const replicaSets = async () => {
    const out = await ok('get', 'rs', '-n', NS, '-l', 'app=web', '-o', 'json');
    return (JSON.parse(out).items as { metadata: Record<string, never>; spec: Record<string, never> }[]).map((rs) => ({
      name: rs.metadata.name as string,
      replicas: rs.spec.replicas as number,
      revision: (rs.metadata.annotations as Record<string, string>)['deployment.kubernetes.io/revision'],
      image: (rs.spec.template as { spec: { containers: { image: string }[] } }).spec.containers[0].image,
    }));
  };

  before(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'orch-rollout-'));
    server = await startServer({
      dataDir,
      securePort: 0,
      bindAddress: '127.0.0.1',
      advertiseAddress: '192.0.2.10',
      apiDomain: 'k8s.io',
    });
    controllers = runDescriptors(
      server.resources,
      [deploymentController, replicaSetController, endpointSliceController],
      {
        domain: apiDomain('k8s.io'),
      },
    );
    agent = startNodeAgent(adminApi(server.resources).rc('', 'pods'), { namespace: NS, clock: systemClock });
  });
  after(async () => {
    await agent?.stop();
    await controllers?.stop();
    await server?.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('creates a deployment and rollout status waits until it is rolled out', async () => {
    assert.equal(
      (await ok('create', 'deployment', 'web', '--image=nginx:1.26', '--replicas=3', '-n', NS)).trim(),
      'deployment.apps/web created',
    );
    const status = await ok('rollout', 'status', 'deployment/web', '-n', NS, '--timeout=60s');
    assert.match(status, /deployment "web" successfully rolled out\n$/);
    const get = await ok('get', 'deployment', 'web', '-n', NS);
    assert.match(get, /^web\s+3\/3\s+3\s+3\s+\d+s$/m);
    const [rs] = await replicaSets();
    assert.match(rs.name, /^web-[bcdfghjklmnpqrstvwxz2456789]+$/);
    assert.equal(rs.revision, '1');
    const pods = await ok('get', 'pods', '-n', NS, '-l', 'app=web', '--no-headers');
    assert.equal(pods.trim().split('\n').length, 3);
    const conditions = await ok(
      'get',
      'deployment',
      'web',
      '-n',
      NS,
      '-o',
      'jsonpath={range .status.conditions[*]}{.type}={.status}/{.reason} {end}',
    );
    assert.match(conditions, /Available=True\/MinimumReplicasAvailable/);
    assert.match(conditions, /Progressing=True\/NewReplicaSetAvailable/);
  });

  it('set image rolls out a new ReplicaSet; history lists both revisions', async () => {
    await ok('set', 'image', 'deployment/web', 'nginx=nginx:1.27', '-n', NS);
    const status = await ok('rollout', 'status', 'deployment/web', '-n', NS, '--timeout=60s');
    assert.match(status, /deployment "web" successfully rolled out\n$/);
    const rss = await replicaSets();
    assert.equal(rss.length, 2);
    const byImage = Object.fromEntries(rss.map((rs) => [rs.image, rs]));
    assert.equal(byImage['nginx:1.26'].replicas, 0);
    assert.equal(byImage['nginx:1.27'].replicas, 3);
    assert.equal(byImage['nginx:1.27'].revision, '2');
    const history = await ok('rollout', 'history', 'deployment/web', '-n', NS);
    assert.match(history, /^deployment\.apps\/web $/m);
    assert.match(history, /^REVISION\s+CHANGE-CAUSE$/m);
    assert.match(history, /^1\s+<none>$/m);
    assert.match(history, /^2\s+<none>$/m);
    const rev1 = await ok('rollout', 'history', 'deployment/web', '-n', NS, '--revision=1');
    assert.match(rev1, /Image:\s+nginx:1\.26/);
  });

  it('undo goes back to the first template, reusing its ReplicaSet with the next revision', async () => {
    const before = await replicaSets();
    assert.match(
      (await ok('rollout', 'undo', 'deployment/web', '-n', NS)).trim(),
      /^deployment\.apps\/web rolled back$/,
    );
    const status = await ok('rollout', 'status', 'deployment/web', '-n', NS, '--timeout=60s');
    assert.match(status, /successfully rolled out/);
    const after = await replicaSets();
    assert.deepEqual(after.map((rs) => rs.name).sort(), before.map((rs) => rs.name).sort());
    const byImage = Object.fromEntries(after.map((rs) => [rs.image, rs]));
    assert.equal(byImage['nginx:1.26'].revision, '3');
    assert.equal(byImage['nginx:1.26'].replicas, 3);
    assert.equal(byImage['nginx:1.27'].replicas, 0);
    const image = await ok(
      'get',
      'deployment',
      'web',
      '-n',
      NS,
      '-o',
      'jsonpath={.spec.template.spec.containers[0].image}',
    );
    assert.equal(image, 'nginx:1.26');
    const history = await ok('rollout', 'history', 'deployment/web', '-n', NS);
    assert.match(history, /^2\s+<none>$/m);
    assert.match(history, /^3\s+<none>$/m);
    assert.doesNotMatch(history, /^1\s/m);
    const revision = await ok(
      'get',
      'deployment',
      'web',
      '-n',
      NS,
      '-o',
      "jsonpath={.metadata.annotations['deployment\\.kubernetes\\.io/revision']}",
    );
    assert.equal(revision, '3');
  });

  it('scale changes the ReplicaSet and the pods', async () => {
    assert.equal((await ok('scale', 'deployment/web', '--replicas=5', '-n', NS)).trim(), 'deployment.apps/web scaled');
    await ok('rollout', 'status', 'deployment/web', '-n', NS, '--timeout=60s');
    const get = await ok('get', 'deployment', 'web', '-n', NS);
    assert.match(get, /^web\s+5\/5\s+5\s+5\s+\d+s$/m);
    const rs = (await replicaSets()).find((r) => r.image === 'nginx:1.26');
    assert.equal(rs?.replicas, 5);
  });

  it("expose: the endpointslice controller lists the ready pods with kube's labels, and leaves default/kubernetes alone", async () => {
    const before = await ok('get', 'endpointslice', 'kubernetes', '-n', 'default', '-o', 'json');
    assert.match((await ok('expose', 'deployment', 'web', '--port=80', '-n', NS)).trim(), /^service\/web exposed$/);
    const slices = await waitForSlices(5);
    assert.equal(slices.length, 1);
    const [slice] = slices;
    assert.equal(slice.metadata.labels['endpointslice.kubernetes.io/managed-by'], 'endpointslice-controller.k8s.io');
    assert.equal(slice.metadata.labels['kubernetes.io/service-name'], 'web');
    assert.equal(slice.addressType, 'IPv4');
    assert.deepEqual(slice.ports, [{ name: '', port: 80, protocol: 'TCP' }]);
    const table = await ok('get', 'endpointslices', '-n', NS, '-l', 'kubernetes.io/service-name=web');
    assert.match(table, /^NAME\s+ADDRESSTYPE\s+PORTS\s+ENDPOINTS\s+AGE$/m);
    assert.match(
      table,
      /^web-\w{5}\s+IPv4\s+80\s+10\.244\.\d+\.\d+,10\.244\.\d+\.\d+,10\.244\.\d+\.\d+ \+ 2 more\.\.\.\s+\d+s$/m,
    );
    const after = await ok('get', 'endpointslice', 'kubernetes', '-n', 'default', '-o', 'json');
    assert.equal(JSON.parse(after).metadata.resourceVersion, JSON.parse(before).metadata.resourceVersion);
    await ok('scale', 'deployment/web', '--replicas=2', '-n', NS);
    await waitForSlices(2);
  });

  async function waitForSlices(n: number) {
    const deadline = Date.now() + 30_000;
    for (;;) {
      const out = await ok('get', 'endpointslices', '-n', NS, '-l', 'kubernetes.io/service-name=web', '-o', 'json');
      // biome-ignore lint/suspicious/noExplicitAny: kubectl's JSON
      const items = JSON.parse(out).items as any[];
      const ready = items.flatMap((s) => s.endpoints ?? []).filter((e) => e.conditions?.ready);
      if (ready.length === n && items.flatMap((s) => s.endpoints ?? []).length === n) return items;
      if (Date.now() > deadline) throw new Error(`wanted ${n} ready endpoints: ${out}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }
});

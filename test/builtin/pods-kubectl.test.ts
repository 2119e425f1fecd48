import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { kubectl } from '../support/kubectl.js';
import { type ServerProcess, startServerProcess } from '../support/server-process.js';

// kubectl against the k8s.io profile: run, get -o wide (the server's Table columns), describe,
// binding and pod status through raw requests and --subresource, and a drain that a disruption
// budget stops.

describe('kubectl with pods, nodes and disruption budgets (k8s.io profile)', () => {
  let server: ServerProcess;
  const k = (...args: string[]) => kubectl(server.kubeconfig, args);
  const file = (name: string, body: object) => {
    const path = join(server.dataDir, name);
    writeFileSync(path, JSON.stringify(body));
    return path;
  };
  before(async () => {
    server = await startServerProcess({ args: ['--api-domain=k8s.io'] });
  });
  after(async () => server?.dispose());

  it('kubectl run creates a defaulted pod; get -o wide shows kube columns; describe reads it', async () => {
    let r = await k('run', 'web', '--image=nginx', '--labels=app=web');
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /^pod\/web created$/m);
    r = await k('get', 'pods', '-o', 'wide');
    assert.equal(r.code, 0, r.stderr);
    const [header, row] = r.stdout.trim().split('\n');
    assert.deepEqual(header.split(/\s{2,}/), [
      'NAME',
      'READY',
      'STATUS',
      'RESTARTS',
      'AGE',
      'IP',
      'NODE',
      'NOMINATED NODE',
      'READINESS GATES',
    ]);
    assert.match(row, /^web\s+0\/1\s+Pending\s+0\s+\S+\s+<none>\s+<none>\s+<none>\s+<none>$/);
    r = await k(
      'get',
      'po',
      'web',
      '-o',
      'jsonpath={.spec.containers[0].imagePullPolicy} {.spec.dnsPolicy} {.status.qosClass}',
    );
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, 'Always ClusterFirst BestEffort');
    r = await k('describe', 'pod', 'web');
    assert.equal(r.code, 0, r.stderr);
    for (const line of [
      /^Name:\s+web$/m,
      /^Namespace:\s+default$/m,
      /^Labels:\s+app=web$/m,
      /^Status:\s+Pending$/m,
      /^\s+Image:\s+nginx$/m,
      /^QoS Class:\s+BestEffort$/m,
    ]) {
      assert.match(r.stdout, line);
    }
  });

  it('binds the pod, reports it running, and a drain stops at the disruption budget', async () => {
    let r = await k(
      'create',
      '-f',
      file('node.json', {
        apiVersion: 'v1',
        kind: 'Node',
        metadata: { name: 'n1', labels: { 'node-role.kubernetes.io/worker': '' } },
      }),
    );
    assert.equal(r.code, 0, r.stderr);
    r = await k('get', 'no');
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /^n1\s+Unknown\s+worker\s+\S+\s*$/m);
    r = await k(
      'create',
      '--raw',
      '/api/v1/namespaces/default/pods/web/binding',
      '-f',
      file('binding.json', {
        apiVersion: 'v1',
        kind: 'Binding',
        metadata: { name: 'web' },
        target: { kind: 'Node', name: 'n1' },
      }),
    );
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /"status":"Success"/);
    r = await k(
      'patch',
      'pod',
      'web',
      '--subresource=status',
      '--type=merge',
      '-p',
      JSON.stringify({
        status: { phase: 'Running', podIP: '10.1.0.7', conditions: [{ type: 'Ready', status: 'True' }] },
      }),
    );
    assert.equal(r.code, 0, r.stderr);
    r = await k('get', 'pods', 'web', '-o', 'wide', '--no-headers');
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /^web\s+0\/1\s+Running\s+0\s+\S+\s+10\.1\.0\.7\s+n1\s+<none>\s+<none>$/m);

    r = await k('create', 'poddisruptionbudget', 'web', '--selector=app=web', '--min-available=1');
    assert.equal(r.code, 0, r.stderr);
    r = await k(
      'patch',
      'pdb',
      'web',
      '--subresource=status',
      '--type=merge',
      '-p',
      JSON.stringify({
        status: { observedGeneration: 1, disruptionsAllowed: 0, currentHealthy: 1, desiredHealthy: 1, expectedPods: 1 },
      }),
    );
    assert.equal(r.code, 0, r.stderr);
    r = await k('get', 'pdb');
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /^NAME\s+MIN AVAILABLE\s+MAX UNAVAILABLE\s+ALLOWED DISRUPTIONS\s+AGE$/m);
    assert.match(r.stdout, /^web\s+1\s+N\/A\s+0\s+\S+$/m);

    r = await k('drain', 'n1', '--force', '--timeout=3s');
    assert.notEqual(r.code, 0);
    assert.match(r.stdout + r.stderr, /Cannot evict pod as it would violate the pod's disruption budget/);
    r = await k('get', 'nodes', 'n1', '--no-headers');
    assert.match(r.stdout, /^n1\s+Unknown,SchedulingDisabled\s+worker\s/m);
    r = await k('get', 'pods', '--field-selector=spec.nodeName=n1', '-o', 'name');
    assert.equal(r.stdout.trim(), 'pod/web');

    r = await k('logs', 'web');
    assert.notEqual(r.code, 0);
    assert.match(r.stderr, /no node agent \(kubelet\) serves node "n1": pods\/log is not available/);
  });

  it('serves persistent volumes and claims with their short names and columns', async () => {
    let r = await k(
      'create',
      '-f',
      file('pv.json', {
        apiVersion: 'v1',
        kind: 'PersistentVolume',
        metadata: { name: 'pv1' },
        spec: {
          capacity: { storage: '5Gi' },
          accessModes: ['ReadWriteOnce', 'ReadOnlyMany'],
          hostPath: { path: '/srv' },
          storageClassName: 'manual',
        },
      }),
    );
    assert.equal(r.code, 0, r.stderr);
    r = await k('get', 'pv');
    assert.equal(r.code, 0, r.stderr);
    assert.match(
      r.stdout,
      /^NAME\s+CAPACITY\s+ACCESS MODES\s+RECLAIM POLICY\s+STATUS\s+CLAIM\s+STORAGECLASS\s+VOLUMEATTRIBUTESCLASS\s+REASON\s+AGE$/m,
    );
    assert.match(r.stdout, /^pv1\s+5Gi\s+RWO,ROX\s+Retain\s+Pending\s+manual\s+<unset>\s+\S+$/m);
    r = await k(
      'create',
      '-f',
      file('pvc.json', {
        apiVersion: 'v1',
        kind: 'PersistentVolumeClaim',
        metadata: { name: 'data' },
        spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } },
      }),
    );
    assert.equal(r.code, 0, r.stderr);
    r = await k('get', 'pvc', '--no-headers');
    assert.match(r.stdout, /^data\s+Pending\s+<unset>\s+\S+$/m);
    r = await k('create', 'quota', 'q', '--hard=pods=10,requests.cpu=500m,limits.cpu=1');
    assert.equal(r.code, 0, r.stderr);
    r = await k('get', 'quota', 'q', '-o', 'jsonpath={.spec.hard}');
    assert.deepEqual(JSON.parse(r.stdout), { 'limits.cpu': '1', pods: '10', 'requests.cpu': '500m' });
  });
});

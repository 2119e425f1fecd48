import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { kubectl } from '../support/kubectl.js';
import { type ServerProcess, startServerProcess } from '../support/server-process.js';

// The real kubectl 1.32 against a server with kube-apiserver's names (`--api-domain=k8s.io`):
// the everyday workload commands. No controllers run, so nothing becomes ready.

const NS = 'apps-demo';

describe('kubectl and the workload kinds under --api-domain=k8s.io', () => {
  let server: ServerProcess;
  const k = (...args: string[]) => kubectl(server.kubeconfig, args);
  const ok = async (...args: string[]) => {
    const r = await k(...args);
    assert.equal(r.code, 0, `kubectl ${args.join(' ')}: ${r.stderr}`);
    return r;
  };

  before(async () => {
    server = await startServerProcess({ args: ['--api-domain=k8s.io'] });
    await ok('create', 'namespace', NS);
  });
  after(async () => {
    await server?.dispose();
  });

  it('lists the workload kinds with their short names and the all category', async () => {
    const r = await ok('api-resources', '--no-headers');
    for (const line of [
      /^deployments\s+deploy\s+apps\/v1\s+true\s+Deployment$/m,
      /^replicasets\s+rs\s+apps\/v1\s+true\s+ReplicaSet$/m,
      /^statefulsets\s+sts\s+apps\/v1\s+true\s+StatefulSet$/m,
      /^daemonsets\s+ds\s+apps\/v1\s+true\s+DaemonSet$/m,
      /^controllerrevisions\s+apps\/v1\s+true\s+ControllerRevision$/m,
      /^replicationcontrollers\s+rc\s+v1\s+true\s+ReplicationController$/m,
      /^jobs\s+batch\/v1\s+true\s+Job$/m,
      /^cronjobs\s+cj\s+batch\/v1\s+true\s+CronJob$/m,
      /^horizontalpodautoscalers\s+hpa\s+autoscaling\/v2\s+true\s+HorizontalPodAutoscaler$/m,
    ]) {
      assert.match(r.stdout, line);
    }
    const all = await ok('api-resources', '--categories=all', '-o', 'name');
    for (const name of [
      'deployments.apps',
      'replicationcontrollers',
      'jobs.batch',
      'cronjobs.batch',
      'horizontalpodautoscalers.autoscaling',
    ]) {
      assert.match(all.stdout, new RegExp(`^${name.replace('.', '\\.')}$`, 'm'));
    }
  });

  it('creates a deployment, shows it with kube columns, and scales it', async () => {
    const created = await ok('create', 'deployment', 'web', '--image=nginx:1.27', '--replicas=2', '-n', NS);
    assert.equal(created.stdout.trim(), 'deployment.apps/web created');
    const get = await ok('get', 'deploy', 'web', '-n', NS);
    assert.match(get.stdout, /^NAME\s+READY\s+UP-TO-DATE\s+AVAILABLE\s+AGE$/m);
    assert.match(get.stdout, /^web\s+0\/2\s+0\s+0\s+\d+s$/m);
    const wide = await ok('get', 'deployments', '-o', 'wide', '-n', NS);
    assert.match(wide.stdout, /^NAME\s+READY\s+UP-TO-DATE\s+AVAILABLE\s+AGE\s+CONTAINERS\s+IMAGES\s+SELECTOR$/m);
    assert.match(wide.stdout, /^web\s+0\/2\s+0\s+0\s+\d+s\s+nginx\s+nginx:1\.27\s+app=web$/m);

    const scaled = await ok('scale', 'deployment', 'web', '--replicas=5', '-n', NS);
    assert.equal(scaled.stdout.trim(), 'deployment.apps/web scaled');
    const replicas = await ok('get', 'deployment', 'web', '-n', NS, '-o', 'jsonpath={.spec.replicas}');
    assert.equal(replicas.stdout, '5');
    const guarded = await k('scale', 'deployment', 'web', '--current-replicas=4', '--replicas=1', '-n', NS);
    assert.notEqual(guarded.code, 0);
    assert.match(guarded.stderr, /Expected replicas to be 4, was 5/);
  });

  it('exposes a deployment as a service selecting its pods, and explains the pod container fields', async () => {
    await ok('create', 'deployment', 'shop', '--image=registry.example/shop:2.1', '--port=8080', '-n', NS);
    let r = await ok('expose', 'deployment', 'shop', '--port=80', '--target-port=8080', '-n', NS);
    assert.match(r.stdout, /^service\/shop exposed$/m);
    r = await ok(
      'get',
      'service',
      'shop',
      '-n',
      NS,
      '-o',
      'jsonpath={.spec.selector.app} {.spec.ports[0].port} {.spec.ports[0].targetPort} {.spec.type} {.spec.clusterIP}',
    );
    const [app, port, target, type, ip] = r.stdout.split(' ');
    assert.deepEqual([app, port, target, type], ['shop', '80', '8080', 'ClusterIP']);
    assert.match(ip ?? '', /^10\.0\.0\.\d+$/);
    r = await ok('explain', 'pod.spec.containers');
    assert.match(r.stdout, /^KIND:\s+Pod$/m);
    assert.match(r.stdout, /^FIELD:\s+containers <\[\]Container>$/m);
    for (const field of ['image', 'ports', 'resources', 'volumeMounts']) {
      assert.match(r.stdout, new RegExp(`^\\s+${field}\\s`, 'm'), field);
    }
  });

  it('creates a job, a cronjob and an autoscaler, and lists all of them with get all', async () => {
    assert.equal(
      (await ok('create', 'job', 'pi', '--image=perl:5.34', '-n', NS, '--', 'perl', '-e', 'print 1')).stdout.trim(),
      'job.batch/pi created',
    );
    assert.equal(
      (await ok('create', 'cronjob', 'tick', '--image=busybox', '--schedule=*/5 * * * *', '-n', NS)).stdout.trim(),
      'cronjob.batch/tick created',
    );
    assert.equal(
      (await ok('autoscale', 'deployment', 'web', '--min=2', '--max=6', '--cpu-percent=70', '-n', NS)).stdout.trim(),
      'horizontalpodautoscaler.autoscaling/web autoscaled',
    );
    const all = await ok('get', 'all', '-n', NS);
    assert.match(all.stdout, /^deployment\.apps\/web\s+0\/5\s+0\s+0\s+\d+s$/m);
    assert.match(all.stdout, /^NAME\s+STATUS\s+COMPLETIONS\s+DURATION\s+AGE$/m);
    assert.match(all.stdout, /^job\.batch\/pi\s+Running\s+0\/1\s+\d+s$/m);
    assert.match(all.stdout, /^NAME\s+SCHEDULE\s+TIMEZONE\s+SUSPEND\s+ACTIVE\s+LAST SCHEDULE\s+AGE$/m);
    assert.match(all.stdout, /^cronjob\.batch\/tick\s+\*\/5 \* \* \* \*\s+<none>\s+False\s+0\s+<none>\s+\d+s$/m);
    assert.match(all.stdout, /^NAME\s+REFERENCE\s+TARGETS\s+MINPODS\s+MAXPODS\s+REPLICAS\s+AGE$/m);
    assert.match(
      all.stdout,
      /^horizontalpodautoscaler\.autoscaling\/web\s+Deployment\/web\s+cpu: <unknown>\/70%\s+2\s+6\s+0\s+\d+s$/m,
    );
    const v1 = await ok(
      'get',
      'horizontalpodautoscalers.v1.autoscaling',
      'web',
      '-n',
      NS,
      '-o',
      'jsonpath={.spec.targetCPUUtilizationPercentage}',
    );
    assert.equal(v1.stdout, '70');
  });

  it('scales a replication controller and a stateful set, and reports kube validation errors', async () => {
    const manifest = JSON.stringify({
      apiVersion: 'v1',
      kind: 'List',
      items: [
        {
          apiVersion: 'v1',
          kind: 'ReplicationController',
          metadata: { name: 'legacy', namespace: NS },
          spec: {
            replicas: 1,
            template: {
              metadata: { labels: { app: 'legacy' } },
              spec: { containers: [{ name: 'c', image: 'busybox' }] },
            },
          },
        },
        {
          apiVersion: 'apps/v1',
          kind: 'StatefulSet',
          metadata: { name: 'db', namespace: NS },
          spec: {
            serviceName: 'db',
            selector: { matchLabels: { app: 'db' } },
            template: {
              metadata: { labels: { app: 'db' } },
              spec: { containers: [{ name: 'db', image: 'postgres' }] },
            },
          },
        },
      ],
    });
    const applied = await kubectl(server.kubeconfig, ['apply', '-f', '-'], manifest);
    assert.equal(applied.code, 0, applied.stderr);
    assert.equal(
      (await ok('scale', 'rc', 'legacy', '--replicas=3', '-n', NS)).stdout.trim(),
      'replicationcontroller/legacy scaled',
    );
    assert.equal(
      (await ok('scale', 'sts', 'db', '--replicas=2', '-n', NS)).stdout.trim(),
      'statefulset.apps/db scaled',
    );
    const rc = await ok('get', 'rc', 'legacy', '-n', NS);
    assert.match(rc.stdout, /^NAME\s+DESIRED\s+CURRENT\s+READY\s+AGE$/m);
    assert.match(rc.stdout, /^legacy\s+3\s+0\s+0\s+\d+s$/m);
    assert.match((await ok('get', 'sts', '-n', NS)).stdout, /^db\s+0\/2\s+\d+s$/m);

    const invalid = await k('create', 'deployment', 'Bad_Name', '--image=nginx', '-n', NS);
    assert.notEqual(invalid.code, 0);
    assert.match(invalid.stderr, /Deployment\.apps "Bad_Name" is invalid: metadata\.name: Invalid value: "Bad_Name"/);
  });
});

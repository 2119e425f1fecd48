import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { stringify as toYaml } from 'yaml';
import { type InProcessServer, startInProcess } from '../pipeline/server-fixture.js';
import {
  type ControllerManagerProcess,
  freePort,
  startControllerManagerProcess,
} from '../support/controller-manager-process.js';
import { eventually } from '../support/eventually.js';

// orch-controller-manager and orch-cloud-controller-manager as separate processes beside an API
// server started with --run-controllers=false: controllers over HTTPS as their service accounts,
// health and metrics, one active replica with failover, and leader migration between the two
// components.

const ELECTION = [
  '--leader-elect-lease-duration=4s',
  '--leader-elect-renew-deadline=3s',
  '--leader-elect-retry-period=500ms',
];

describe('controller manager processes', () => {
  let dir: string;
  let s: InProcessServer;
  let kubeconfig: string;
  const started: ControllerManagerProcess[] = [];
  const kcm = async (extra: string[] = []) => {
    const port = await freePort();
    const p = await startControllerManagerProcess({
      port,
      args: [
        `--kubeconfig=${kubeconfig}`,
        `--secure-port=${port}`,
        '--bind-address=127.0.0.1',
        '--use-service-account-credentials',
        ...ELECTION,
        ...extra,
      ],
    });
    started.push(p);
    return p;
  };
  const json = async (path: string) => {
    const r = await s.api.admin('GET', path);
    return r.status === 200 ? r.json() : undefined;
  };

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'orch-cm-'));
    s = await startInProcess({ runControllers: false });
    kubeconfig = s.server.kubeconfigPath ?? '';
  });
  after(async () => {
    for (const p of started) await p.stop('SIGKILL');
    await s.stop();
    await rm(dir, { recursive: true, force: true });
  });

  it('runs the controllers over HTTPS as their service accounts, with health and metrics', async () => {
    const cm = await kcm();
    assert.deepEqual(await cm.get('/healthz'), { status: 200, text: 'ok' });
    await s.api.admin('POST', '/api/v1/namespaces', { body: { metadata: { name: 'cm-a' } } });
    await eventually(
      async () => (await json('/api/v1/namespaces/cm-a/serviceaccounts/default')) !== undefined,
      'the default service account',
    );
    const d = await s.api.admin('POST', '/apis/apps/v1/namespaces/cm-a/deployments', {
      body: {
        metadata: { name: 'web' },
        spec: {
          replicas: 2,
          selector: { matchLabels: { app: 'web' } },
          template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } },
        },
      },
    });
    assert.equal(d.status, 201, d.text);
    await eventually(
      async () => (await json('/api/v1/namespaces/cm-a/pods?labelSelector=app%3Dweb'))?.items.length === 2,
      'the pods of the deployment',
      15_000,
    );
    const rs = (await json('/apis/apps/v1/namespaces/cm-a/replicasets')).items;
    assert.equal(rs.length, 1);
    assert.equal(rs[0].metadata.managedFields[0].manager, 'deployment-controller');
    const expected = ['namespace-controller', 'garbage-collector-controller', 'job-controller', 'cronjob-controller'];
    await eventually(
      async () => {
        const running = await cm.running();
        return expected.every((c) => running.includes(c));
      },
      'every default controller running',
      15_000,
    );
    const running = await cm.running();
    assert.ok(!running.includes('bootstrap-signer-controller'), 'disabled by default');
    // Each controller acts as its own service account (kube's UseServiceAccountCredentials).
    const sas = (await json('/api/v1/namespaces/orch-system/serviceaccounts')).items.map(
      (a: { metadata: { name: string } }) => a.metadata.name,
    );
    for (const sa of ['deployment-controller', 'replicaset-controller', 'namespace-controller'])
      assert.ok(sas.includes(sa), sa);
    assert.equal(await cm.stop(), 0);
  });

  it('runs the controllers in one replica only, and the other takes over when it stops', async () => {
    const a = await kcm();
    const b = await kcm();
    await eventually(
      async () => (await a.running()).length + (await b.running()).length > 0,
      'one of them leads',
      15_000,
    );
    const [leader, follower] = (await a.running()).length > 0 ? [a, b] : [b, a];
    await eventually(
      async () => (await leader.running()).includes('deployment-controller'),
      'the leader runs them',
      15_000,
    );
    assert.deepEqual(await follower.running(), []);
    assert.equal(await leader.stop(), 0);
    await eventually(async () => (await follower.running()).includes('deployment-controller'), 'failover', 15_000);
    // The new leader works: a scaled deployment gets its pods.
    await s.api.admin('PATCH', '/apis/apps/v1/namespaces/cm-a/deployments/web', {
      headers: { 'content-type': 'application/merge-patch+json' },
      body: { spec: { replicas: 3 } },
    });
    await eventually(
      async () => (await json('/api/v1/namespaces/cm-a/pods?labelSelector=app%3Dweb'))?.items.length === 3,
      'the pods of the scaled deployment',
      15_000,
    );
    await follower.stop();
  });

  it('moves controllers between the controller manager and the cloud controller manager without running them twice', async () => {
    const migration = {
      apiVersion: 'controllermanager.config.orch.io/v1',
      kind: 'LeaderMigrationConfiguration',
      leaderName: 'cloud-provider-extraction-migration',
      controllerLeaders: [
        { name: 'service-lb-controller', component: '*' },
        { name: 'node-route-controller', component: 'cloud-controller-manager' },
      ],
    };
    const migrationFile = join(dir, 'migration.yaml');
    await writeFile(migrationFile, toYaml(migration));
    const ccmPort = await freePort();
    const ccmConfig = join(dir, 'ccm.yaml');
    await writeFile(
      ccmConfig,
      toYaml({
        apiVersion: 'cloudcontrollermanager.config.orch.io/v1alpha1',
        kind: 'CloudControllerManagerConfiguration',
        Generic: {
          Port: ccmPort,
          Address: '127.0.0.1',
          LeaderElection: { leaderElect: true, leaseDuration: '4s', renewDeadline: '3s', retryPeriod: '500ms' },
          LeaderMigrationEnabled: true,
          LeaderMigration: {
            leaderName: migration.leaderName,
            resourceLock: 'leases',
            controllerLeaders: migration.controllerLeaders,
          },
        },
        OrchCloudShared: { CloudProvider: { Name: 'external' } },
      }),
    );
    const controllerManager = await kcm(['--enable-leader-migration', `--leader-migration-config=${migrationFile}`]);
    const cloud = await startControllerManagerProcess({
      cloud: true,
      port: ccmPort,
      args: [`--config=${ccmConfig}`, `--kubeconfig=${kubeconfig}`],
    });
    started.push(cloud);
    const where = async (name: string) => [
      (await controllerManager.running()).includes(name),
      (await cloud.running()).includes(name),
    ];
    // The migrated controllers run on whichever component holds the migration Lease (one assigned
    // to the cloud controller manager runs only when it does); each component runs its own
    // controllers under its own Lease meanwhile.
    await eventually(
      async () => (await where('service-lb-controller')).filter(Boolean).length === 1,
      'service-lb once',
      15_000,
    );
    await eventually(
      async () => (await controllerManager.running()).includes('deployment-controller'),
      'kcm runs its own',
      15_000,
    );
    await eventually(async () => (await cloud.running()).includes('cloud-node-controller'), 'ccm runs its own', 15_000);
    // The cloud node controller initializes nodes registered with the uninitialized taint.
    await s.api.admin('POST', '/api/v1/nodes', {
      body: {
        metadata: { name: 'n1' },
        spec: { taints: [{ key: 'node.cloudprovider.orch.io/uninitialized', value: 'true', effect: 'NoSchedule' }] },
      },
    });
    await eventually(
      async () =>
        !((await json('/api/v1/nodes/n1'))?.spec?.taints ?? []).some(
          (t: { key: string }) => t.key === 'node.cloudprovider.orch.io/uninitialized',
        ),
      'the node initialized',
    );
    const [kcmHolds] = await where('service-lb-controller');
    const routeOnCloud = async () => (await cloud.running()).includes('node-route-controller');
    if (kcmHolds) assert.equal(await routeOnCloud(), false);
    else await eventually(routeOnCloud, 'route on the cloud side', 15_000);
    for (let i = 0; i < 5; i++) {
      assert.equal((await where('service-lb-controller')).filter(Boolean).length, 1);
      assert.ok(!(await controllerManager.running()).includes('node-route-controller'));
      await new Promise((r) => setTimeout(r, 200));
    }
    const lease = await json(
      '/apis/coordination.orch.io/v1/namespaces/orch-system/leases/cloud-provider-extraction-migration',
    );
    assert.ok(lease.spec.holderIdentity);
    // The migration Lease's holder stops: the other component takes the migrated controllers.
    const [holder, other] = kcmHolds ? [controllerManager, cloud] : [cloud, controllerManager];
    await holder.stop();
    await eventually(async () => (await other.running()).includes('service-lb-controller'), 'migrated over', 15_000);
    if (other === cloud) await eventually(routeOnCloud, 'route moved to the cloud side', 15_000);
  });
});

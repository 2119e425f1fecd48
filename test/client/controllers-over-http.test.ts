import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { Registry } from 'prom-client';
import { API_DOMAIN_NAMES, apiDomain } from '../../src/apis/api-domain.js';
import { StatusError } from '../../src/apis/meta/status.js';
import type { ApiObject } from '../../src/apis/object.js';
import type { ResourceClient } from '../../src/client/api/api-client.js';
import { HttpApiClient } from '../../src/client/api/http-api-client.js';
import { ServiceAccountCredentials } from '../../src/client/api/service-account-credentials.js';
import { loadKubeconfig } from '../../src/client/rest/kubeconfig.js';
import {
  type RunningControllerManager,
  startControllerManager,
} from '../../src/controllermanager/controller-manager.js';
import { inProcessControllers } from '../../src/controllers/index.js';
import { type RunningServer, startServer } from '../../src/server/start-server.js';
import { systemClock } from '../../src/util/clock.js';
import type { Logger } from '../../src/util/logger.js';

const signal = new AbortController().signal;

async function eventually<T>(what: string, check: () => Promise<T | undefined | false>, ms = 20_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = await check();
    if (v !== undefined && v !== false) return v;
    if (Date.now() > deadline) assert.fail(`timed out waiting until ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

async function find(c: ResourceClient, namespace: string, name: string): Promise<ApiObject | undefined> {
  try {
    return await c.get(namespace, name, signal);
  } catch (e) {
    if (e instanceof StatusError && e.code === 404) return undefined;
    throw e;
  }
}

/**
 * orch-apiserver with `runControllers: false` (RBAC on), and the four controllers it would run
 * in process running instead over HTTPS, each as its own service account with a bound token
 * (UseServiceAccountCredentials), under the controller manager's run loop.
 */
for (const domainName of API_DOMAIN_NAMES) {
  const D = apiDomain(domainName);
  const RBAC = D.group('rbac.authorization');

  describe(`the in-process controllers over HTTPS against a server that runs none (${domainName})`, () => {
    let dataDir: string;
    let server: RunningServer;
    let root: HttpApiClient;
    let creds: ServiceAccountCredentials;
    let manager: RunningControllerManager;
    const refusals: string[] = [];
    const logger: Logger = {
      info() {},
      warn: (m, f) => refusals.push(`${m} ${String(f?.error ?? '')}`),
      error: (m, f) => refusals.push(`${m} ${String(f?.error ?? '')}`),
    };
    let cms: ResourceClient;
    let namespaces: ResourceClient;

    before(async () => {
      dataDir = await mkdtemp(join(tmpdir(), 'orch-controllers-http-'));
      server = await startServer({
        dataDir,
        securePort: 0,
        bindAddress: '127.0.0.1',
        runControllers: false,
        apiDomain: domainName,
      });
      const config = await loadKubeconfig(server.kubeconfigPath!);
      const clientOptions = { qps: -1, discoveryPeriodMs: 500 };
      root = await HttpApiClient.connect({
        ...clientOptions,
        config,
        domain: D,
        fieldManager: D.controllerManagerName,
        logger,
      });
      creds = new ServiceAccountCredentials({ root, config, domain: D, client: clientOptions, logger });
      manager = startControllerManager({
        component: 'test-controller-manager',
        root,
        clientFor: (c) => creds.clientFor(c),
        controllers: inProcessControllers({ gcSyncTimeoutMs: 5000 }),
        configMembers: {},
        minResyncPeriodMs: 12 * 3600_000,
        controllerStartIntervalMs: 0,
        leaderElection: {
          leaderElect: false,
          leaseDuration: '15s',
          renewDeadline: '10s',
          retryPeriod: '2s',
          resourceLock: 'leases',
          resourceName: 'test-controller-manager',
          resourceNamespace: D.systemNamespace,
        },
        metrics: new Registry(),
        domain: D,
        clock: systemClock,
        logger,
      });
      cms = root.resource('', 'v1', 'configmaps')!;
      namespaces = root.resource('', 'v1', 'namespaces')!;
    });
    after(async () => {
      await manager?.stop();
      await creds?.close();
      root?.close();
      await server?.close();
      await rm(dataDir, { recursive: true, force: true });
    });

    const cm = (name: string, ownerReferences?: object[]): ApiObject =>
      ({
        apiVersion: 'v1',
        kind: 'ConfigMap',
        metadata: { name, ...(ownerReferences ? { ownerReferences } : {}) },
      }) as ApiObject;

    it('gives a new namespace its default service account', async () => {
      await eventually('the four controllers run', async () => manager.running().length === 4);
      assert.deepEqual(manager.running(), [
        'clusterrole-aggregation-controller',
        'garbage-collector-controller',
        'namespace-controller',
        'serviceaccount-controller',
      ]);
      await namespaces.create('', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'work' } }, signal);
      const sa = await eventually('a default service account', () =>
        find(root.resource('', 'v1', 'serviceaccounts')!, 'work', 'default'),
      );
      assert.equal(sa.metadata.namespace, 'work');
    });

    it('collects garbage: background, orphan and foreground deletion', async () => {
      const ref = (o: ApiObject, block = false) => [
        {
          apiVersion: 'v1',
          kind: 'ConfigMap',
          name: o.metadata.name,
          uid: o.metadata.uid,
          ...(block ? { blockOwnerDeletion: true } : {}),
        },
      ];
      const owner = await cms.create('work', cm('owner'), signal);
      await cms.create('work', cm('dependent', ref(owner)), signal);
      await cms.delete('work', 'owner', {}, signal);
      await eventually('the dependent is deleted', async () => !(await find(cms, 'work', 'dependent')));

      const keeper = await cms.create('work', cm('keeper'), signal);
      await cms.create('work', cm('orphan', ref(keeper, true)), signal);
      await cms.delete('work', 'keeper', { propagationPolicy: 'Orphan' }, signal);
      await eventually('the owner is gone and its dependent orphaned', async () => {
        if (await find(cms, 'work', 'keeper')) return false;
        return (await find(cms, 'work', 'orphan'))?.metadata.ownerReferences === undefined;
      });

      const parent = await cms.create('work', cm('parent'), signal);
      await cms.create('work', cm('child', ref(parent, true)), signal);
      await cms.delete('work', 'parent', { propagationPolicy: 'Foreground' }, signal);
      await eventually(
        'foreground deletion finishes',
        async () => !(await find(cms, 'work', 'parent')) && !(await find(cms, 'work', 'child')),
      );
    });

    it('aggregates cluster roles with server-side apply as clusterrole-aggregation-controller', async () => {
      const roles = root.resource(RBAC, 'v1', 'clusterroles')!;
      await roles.create(
        '',
        {
          apiVersion: `${RBAC}/v1`,
          kind: 'ClusterRole',
          metadata: { name: 'gadget-viewer', labels: { [`${RBAC}/aggregate-to-view`]: 'true' } },
          rules: [{ apiGroups: ['gadgets.example'], resources: ['gadgets'], verbs: ['get'] }],
        } as ApiObject,
        signal,
      );
      const view = await eventually('view aggregates the new role', async () => {
        const v = (await roles.get('', 'view', signal)) as ApiObject & { rules?: { apiGroups?: string[] }[] };
        return (v.rules ?? []).some((r) => r.apiGroups?.includes('gadgets.example')) ? v : undefined;
      });
      const mine = view.metadata.managedFields?.find((m) => m.manager === 'clusterrole-aggregation-controller');
      assert.equal(mine?.operation, 'Apply');
      assert.deepEqual(mine?.fieldsV1, { 'f:rules': {} });
    });

    it('empties a deleted namespace, custom resources included, then removes it', async () => {
      const crds = root.resource(D.group('apiextensions'), 'v1', 'customresourcedefinitions')!;
      await crds.create(
        '',
        {
          apiVersion: `${D.group('apiextensions')}/v1`,
          kind: 'CustomResourceDefinition',
          metadata: { name: 'sprockets.example.com' },
          spec: {
            group: 'example.com',
            names: { plural: 'sprockets', singular: 'sprocket', kind: 'Sprocket', listKind: 'SprocketList' },
            scope: 'Namespaced',
            versions: [
              {
                name: 'v1',
                served: true,
                storage: true,
                schema: { openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } },
              },
            ],
          },
        } as ApiObject,
        signal,
      );
      await root.refresh();
      const sprockets = await eventually('sprockets are served', async () => {
        await root.refresh();
        return root.resource('example.com', 'v1', 'sprockets');
      });
      await eventually('a sprocket can be created', () =>
        sprockets
          .create(
            'work',
            { apiVersion: 'example.com/v1', kind: 'Sprocket', metadata: { name: 's' } } as ApiObject,
            signal,
          )
          .then(
            () => true,
            () => false,
          ),
      );
      await cms.create('work', cm('content'), signal);
      await namespaces.delete('', 'work', {}, signal);
      await eventually('the namespace is gone', async () => !(await find(namespaces, '', 'work')), 30_000);
      assert.deepEqual((await cms.list('work', {}, signal)).items, []);
      assert.deepEqual((await sprockets.list('work', {}, signal)).items, []);
      assert.deepEqual(
        refusals.filter((l) => l.includes('forbidden')),
        [],
        'the controllers hold the permissions they need',
      );
    });
  });
}

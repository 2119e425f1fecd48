import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Logger } from '../../src/util/logger.js';
import { type InProcessServer, startInProcess } from '../pipeline/server-fixture.js';

const RBAC = '/apis/rbac.authorization.orch.io/v1';
const RBAC_GROUP = 'rbac.authorization.orch.io';
const AUTOUPDATE = 'rbac.authorization.orch.io/autoupdate';
const SYSTEM_NS = 'orch-system';
type Rule = { apiGroups?: string[]; resources?: string[]; verbs: string[] };

/** Every warning and error the server logged, as `message error`. */
function capturingLogger(): { logger: Logger; lines: string[] } {
  const lines: string[] = [];
  const keep = (msg: string, fields?: Record<string, unknown>) => lines.push(`${msg} ${String(fields?.error ?? '')}`);
  return { logger: { info() {}, warn: keep, error: keep }, lines };
}

async function eventually<T>(what: string, check: () => Promise<T | undefined | false>, ms = 15_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = await check();
    if (v !== undefined && v !== false) return v;
    if (Date.now() > deadline) assert.fail(`timed out waiting until ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

const controllerUser = (name: string) => ({
  user: `system:serviceaccount:${SYSTEM_NS}:${name}`,
  groups: ['system:serviceaccounts', `system:serviceaccounts:${SYSTEM_NS}`, 'system:authenticated'],
});

/** Helpers over one server; `s()` is read per call (tests restart the server). */
function helpers(s: () => InProcessServer) {
  // Sent with a length: a DELETE body is read only then.
  const api = (method: string, path: string, body?: object) => {
    if (body === undefined) return s().api.admin(method, path);
    const text = JSON.stringify(body);
    const headers = { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(text)) };
    return s().api.admin(method, path, { body: text, headers });
  };
  const status = async (path: string) => (await api('GET', path)).status;
  const ok = async (method: string, path: string, body?: object) => {
    const r = await api(method, path, body);
    assert.ok(r.status < 300, `${method} ${path}: ${r.status} ${r.text}`);
    return r.json();
  };
  return {
    api,
    ok,
    status,
    namespace: (name: string) =>
      ok('POST', '/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name } }),
    configMap: (ns: string, name: string, ownerReferences?: unknown[]) =>
      ok('POST', `/api/v1/namespaces/${ns}/configmaps`, {
        apiVersion: 'v1',
        kind: 'ConfigMap',
        metadata: { name, ...(ownerReferences ? { ownerReferences } : {}) },
      }),
    /** Whether the controller's service account may make the request now (SubjectAccessReview). */
    async allowed(controller: string, resourceAttributes: Record<string, string>): Promise<boolean> {
      const r = await ok('POST', '/apis/authorization.orch.io/v1/subjectaccessreviews', {
        apiVersion: 'authorization.orch.io/v1',
        kind: 'SubjectAccessReview',
        spec: { ...controllerUser(controller), resourceAttributes },
      });
      return r.status.allowed === true;
    },
    /** Replaces the rules of a default role, turning its autoupdate off; returns the old rules. */
    async setRules(role: string, change: (rules: Rule[]) => Rule[]): Promise<Rule[]> {
      const o = await ok('GET', `${RBAC}/clusterroles/${role}`);
      const old = structuredClone(o.rules) as Rule[];
      o.rules = change(structuredClone(old));
      o.metadata.annotations[AUTOUPDATE] = 'false';
      await ok('PUT', `${RBAC}/clusterroles/${role}`, o);
      return old;
    },
  };
}

describe('in-process controllers act under their default roles (RBAC)', () => {
  let dataDir: string;
  let s: InProcessServer;
  const log = capturingLogger();
  const start = () => startInProcess({ dataDir, authorizationModes: ['RBAC'], logger: log.logger });
  const h = helpers(() => s);
  const refusals = () => log.lines.filter((l) => l.includes('is forbidden'));

  before(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'orch-controller-authz-'));
    s = await start();
  });
  after(async () => {
    await s.stop();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('do their work from the first moment without a single refusal', async () => {
    // Started right after the default policy was written: their first requests are allowed.
    await eventually('the default service accounts of the system namespaces', async () => {
      for (const ns of ['default', SYSTEM_NS, 'orch-public']) {
        if ((await h.status(`/api/v1/namespaces/${ns}/serviceaccounts/default`)) !== 200) return false;
      }
      return true;
    });
    await h.namespace('work');
    await eventually(
      'a default service account',
      async () => (await h.status('/api/v1/namespaces/work/serviceaccounts/default')) === 200,
    );
    const owner = await h.configMap('work', 'owner');
    await h.configMap('work', 'dependent', [
      { apiVersion: 'v1', kind: 'ConfigMap', name: 'owner', uid: owner.metadata.uid },
    ]);
    await h.ok('DELETE', '/api/v1/namespaces/work/configmaps/owner');
    await eventually(
      'the garbage collector deletes the dependent',
      async () => (await h.status('/api/v1/namespaces/work/configmaps/dependent')) === 404,
    );
    // Orphaning (dependents updated, then the owner's finalizer removed) and foreground deletion.
    const ref = (o: { metadata: { uid: string } }, name: string) => [
      { apiVersion: 'v1', kind: 'ConfigMap', name, uid: o.metadata.uid, blockOwnerDeletion: true },
    ];
    const keeper = await h.configMap('work', 'keeper');
    await h.configMap('work', 'orphan', ref(keeper, 'keeper'));
    await h.ok('DELETE', '/api/v1/namespaces/work/configmaps/keeper', { propagationPolicy: 'Orphan' });
    await eventually('the owner is gone and its dependent orphaned', async () => {
      if ((await h.status('/api/v1/namespaces/work/configmaps/keeper')) !== 404) return false;
      return (await h.ok('GET', '/api/v1/namespaces/work/configmaps/orphan')).metadata.ownerReferences === undefined;
    });
    const parent = await h.configMap('work', 'parent');
    await h.configMap('work', 'child', ref(parent, 'parent'));
    await h.ok('DELETE', '/api/v1/namespaces/work/configmaps/parent', { propagationPolicy: 'Foreground' });
    await eventually('foreground deletion finishes', async () => {
      for (const name of ['parent', 'child']) {
        if ((await h.status(`/api/v1/namespaces/work/configmaps/${name}`)) !== 404) return false;
      }
      return true;
    });
    await h.ok('POST', `${RBAC}/clusterroles`, {
      apiVersion: `${RBAC_GROUP}/v1`,
      kind: 'ClusterRole',
      metadata: { name: 'gadget-viewer', labels: { [`${RBAC_GROUP}/aggregate-to-view`]: 'true' } },
      rules: [{ apiGroups: ['gadgets.example'], resources: ['gadgets'], verbs: ['get'] }],
    });
    await eventually('view aggregates the new role', async () => {
      const view = await h.ok('GET', `${RBAC}/clusterroles/view`);
      return (view.rules ?? []).some((r: Rule) => r.apiGroups?.includes('gadgets.example'));
    });
    await h.ok('DELETE', '/api/v1/namespaces/work');
    await eventually('the namespace is gone', async () => (await h.status('/api/v1/namespaces/work')) === 404);
    assert.deepEqual(refusals(), []);
  });

  it('aggregates with server-side apply, as field manager clusterrole-aggregation-controller', async () => {
    const view = await h.ok('GET', `${RBAC}/clusterroles/view`);
    const entries = (view.metadata.managedFields ?? []) as { manager: string; operation: string; fieldsV1: object }[];
    const mine = entries.find((e) => e.manager === 'clusterrole-aggregation-controller');
    assert.ok(mine, JSON.stringify(entries));
    assert.equal(mine.operation, 'Apply');
    assert.deepEqual(mine.fieldsV1, { 'f:rules': {} });
  });

  const cases: {
    controller: string;
    /** Takes away the permission the request below needs. */
    without: (rules: Rule[]) => Rule[];
    /** What the controller will be refused. */
    request: Record<string, string>;
    /** Makes the controller try it; returns a check that it has happened. */
    trigger: () => Promise<() => Promise<boolean>>;
    refusal: RegExp;
  }[] = [
    {
      controller: 'service-account-controller',
      without: (rules) => rules.filter((r) => !r.resources?.includes('serviceaccounts')),
      request: { verb: 'create', resource: 'serviceaccounts', namespace: 'sa-denied' },
      async trigger() {
        await h.namespace('sa-denied');
        return async () => (await h.status('/api/v1/namespaces/sa-denied/serviceaccounts/default')) === 200;
      },
      refusal:
        /serviceaccounts is forbidden: User "system:serviceaccount:orch-system:service-account-controller" cannot create resource "serviceaccounts" in API group "" in the namespace "sa-denied"/,
    },
    {
      controller: 'namespace-controller',
      without: (rules) => rules.filter((r) => !r.resources?.includes('namespaces/status')),
      request: { verb: 'update', resource: 'namespaces', subresource: 'status', name: 'ns-denied' },
      async trigger() {
        await h.namespace('ns-denied');
        await h.ok('DELETE', '/api/v1/namespaces/ns-denied');
        return async () => (await h.status('/api/v1/namespaces/ns-denied')) === 404;
      },
      refusal:
        /namespaces "ns-denied" is forbidden: User "system:serviceaccount:orch-system:namespace-controller" cannot update resource "namespaces\/status" in API group "" at the cluster scope/,
    },
    {
      controller: 'generic-garbage-collector',
      without: (rules) =>
        rules.map((r) => (r.resources?.includes('*') ? { ...r, verbs: r.verbs.filter((v) => v !== 'delete') } : r)),
      request: { verb: 'delete', resource: 'configmaps', namespace: 'gc-denied', name: 'dep' },
      async trigger() {
        await h.namespace('gc-denied');
        const owner = await h.configMap('gc-denied', 'owner');
        await h.configMap('gc-denied', 'dep', [
          { apiVersion: 'v1', kind: 'ConfigMap', name: 'owner', uid: owner.metadata.uid },
        ]);
        await h.ok('DELETE', '/api/v1/namespaces/gc-denied/configmaps/owner');
        return async () => (await h.status('/api/v1/namespaces/gc-denied/configmaps/dep')) === 404;
      },
      refusal:
        /configmaps "dep" is forbidden: User "system:serviceaccount:orch-system:generic-garbage-collector" cannot delete resource "configmaps" in API group "" in the namespace "gc-denied"/,
    },
    {
      controller: 'clusterrole-aggregation-controller',
      without: (rules) => rules.map((r) => ({ ...r, verbs: r.verbs.filter((v) => v !== 'patch') })),
      request: { verb: 'patch', group: RBAC_GROUP, resource: 'clusterroles', name: 'agg-denied' },
      async trigger() {
        await h.ok('POST', `${RBAC}/clusterroles`, {
          apiVersion: `${RBAC_GROUP}/v1`,
          kind: 'ClusterRole',
          metadata: { name: 'agg-denied' },
          aggregationRule: { clusterRoleSelectors: [{ matchLabels: { 'agg-denied': 'true' } }] },
        });
        await h.ok('POST', `${RBAC}/clusterroles`, {
          apiVersion: `${RBAC_GROUP}/v1`,
          kind: 'ClusterRole',
          metadata: { name: 'agg-denied-source', labels: { 'agg-denied': 'true' } },
          rules: [{ apiGroups: [''], resources: ['configmaps'], verbs: ['get'] }],
        });
        return async () => ((await h.ok('GET', `${RBAC}/clusterroles/agg-denied`)).rules ?? []).length === 1;
      },
      refusal:
        /clusterroles.rbac.authorization.orch.io "agg-denied" is forbidden: User "system:serviceaccount:orch-system:clusterrole-aggregation-controller" cannot patch resource "clusterroles" in API group "rbac.authorization.orch.io" at the cluster scope/,
    },
  ];
  for (const c of cases) {
    it(`${c.controller}: a request its role no longer allows fails with 403 and is retried until it is allowed again`, async () => {
      const role = `system:controller:${c.controller}`;
      assert.equal(await h.allowed(c.controller, c.request), true, 'the default role allows it');
      const rules = await h.setRules(role, c.without);
      await eventually(
        'the authorizer sees the narrower role',
        async () => !(await h.allowed(c.controller, c.request)),
      );
      const done = await c.trigger();
      await eventually(`${c.controller} is refused`, async () => refusals().some((l) => c.refusal.test(l)));
      assert.equal(await done(), false, 'nothing happened without the permission');
      if (c.controller === 'service-account-controller') {
        // autoupdate is off: a restart keeps the narrower role, and the refusal.
        await s.server.close();
        log.lines.length = 0;
        s = await start();
        await eventually(`${c.controller} is refused again after a restart`, async () =>
          refusals().some((l) => c.refusal.test(l)),
        );
        assert.equal(await done(), false);
      }
      await h.setRules(role, () => rules);
      await eventually(`${c.controller} succeeds once allowed again`, done, 40_000);
    });
  }
});

describe('in-process controllers under AlwaysAllow', () => {
  let s: InProcessServer;
  const log = capturingLogger();
  const h = helpers(() => s);
  before(async () => {
    s = await startInProcess({ authorizationModes: ['AlwaysAllow'], logger: log.logger });
  });
  after(() => s?.stop());

  it('keep working whatever their roles say', async () => {
    await h.setRules('system:controller:service-account-controller', () => []);
    await h.setRules('system:controller:namespace-controller', () => []);
    await h.namespace('open');
    await eventually(
      'a default service account',
      async () => (await h.status('/api/v1/namespaces/open/serviceaccounts/default')) === 200,
    );
    await h.ok('DELETE', '/api/v1/namespaces/open');
    await eventually('the namespace is gone', async () => (await h.status('/api/v1/namespaces/open')) === 404);
    assert.deepEqual(
      log.lines.filter((l) => l.includes('is forbidden')),
      [],
    );
  });
});

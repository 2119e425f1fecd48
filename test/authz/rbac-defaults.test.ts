import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { type InProcessServer, startInProcess } from '../pipeline/server-fixture.js';
import { eventually as eventuallyWithin } from '../support/eventually.js';

/** Aggregation and reconciliation run in controllers: allow them 10 s on a loaded machine. */
const eventually = (check: () => Promise<boolean>, what: string) => eventuallyWithin(check, what, 10_000);

const RBAC = '/apis/rbac.authorization.orch.io/v1';
const RBAC_V1 = 'rbac.authorization.orch.io/v1';
const BOOTSTRAPPING = 'orch.io/bootstrapping';
const AUTOUPDATE = 'rbac.authorization.orch.io/autoupdate';
type Rule = { apiGroups?: string[]; resources?: string[]; verbs: string[]; nonResourceURLs?: string[] };

describe('default RBAC policy', () => {
  let dataDir: string;
  let s: InProcessServer;
  const start = () => startInProcess({ dataDir, authorizationModes: ['RBAC'] });
  const getRole = async (name: string) => {
    const r = await s.api.admin('GET', `${RBAC}/clusterroles/${encodeURIComponent(name)}`);
    assert.equal(r.status, 200, r.text);
    return r.json() as {
      metadata: { labels?: Record<string, string>; annotations?: Record<string, string> };
      rules?: Rule[];
    };
  };
  const hasRule = (rules: Rule[] | undefined, group: string, resource: string, verb: string) =>
    (rules ?? []).some(
      (r) => r.apiGroups?.includes(group) && r.resources?.includes(resource) && r.verbs.includes(verb),
    );

  before(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'orch-rbac-defaults-'));
    s = await start();
  });
  after(async () => {
    await s.stop();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('creates the default cluster roles and bindings at start, labelled and annotated', async () => {
    const roles = await s.api.admin('GET', `${RBAC}/clusterroles?labelSelector=${BOOTSTRAPPING}%3Drbac-defaults`);
    assert.equal(roles.status, 200);
    const names = (roles.json().items as { metadata: { name: string } }[]).map((i) => i.metadata.name);
    for (const name of ['cluster-admin', 'admin', 'edit', 'view', 'system:basic-user', 'system:orch-scheduler']) {
      assert.ok(names.includes(name), `${name} in ${names.join(', ')}`);
    }
    const admin = await getRole('cluster-admin');
    assert.equal(admin.metadata.annotations?.[AUTOUPDATE], 'true');
    const binding = await s.api.admin('GET', `${RBAC}/clusterrolebindings/system:public-info-viewer`);
    assert.equal(binding.status, 200);
    assert.deepEqual(
      binding.json().subjects.map((x: { name: string }) => x.name),
      ['system:authenticated', 'system:unauthenticated'],
    );
    const ready = await s.api.admin('GET', '/readyz?verbose');
    assert.match(ready.text, /\[\+\]poststarthook\/rbac\/bootstrap-roles ok/);
  });

  it('lets an authenticated user without bindings see public info and review itself, nothing more', async () => {
    const erin = await s.userCredentials('erin', ['team']);
    assert.equal((await s.api.admin('GET', '/version', { as: erin })).status, 200);
    assert.equal((await s.api.admin('GET', '/healthz', { as: erin })).status, 200);
    assert.equal((await s.api.admin('GET', '/apis', { as: erin })).status, 200);
    const review = await s.api.admin('POST', '/apis/authorization.orch.io/v1/selfsubjectaccessreviews', {
      as: erin,
      body: {
        apiVersion: 'authorization.orch.io/v1',
        kind: 'SelfSubjectAccessReview',
        spec: { resourceAttributes: { namespace: 'default', verb: 'list', resource: 'configmaps' } },
      },
    });
    assert.equal(review.status, 201, review.text);
    assert.equal(review.json().status.allowed, false);
    assert.equal((await s.api.admin('GET', '/api/v1/namespaces/default/configmaps', { as: erin })).status, 403);
  });

  it('aggregates rules into admin, edit and view, following new labelled roles', async () => {
    await eventually(async () => hasRule((await getRole('view')).rules, '', 'configmaps', 'list'), 'view aggregates');
    await eventually(
      async () => hasRule((await getRole('edit')).rules, '', 'configmaps', 'create'),
      'edit aggregates edit and view rules',
    );
    await eventually(
      async () => hasRule((await getRole('admin')).rules, RBAC_V1.split('/')[0], 'rolebindings', 'create'),
      'admin aggregates',
    );
    const created = await s.api.admin('POST', `${RBAC}/clusterroles`, {
      body: {
        apiVersion: RBAC_V1,
        kind: 'ClusterRole',
        metadata: { name: 'widget-viewer', labels: { 'rbac.authorization.orch.io/aggregate-to-view': 'true' } },
        rules: [{ apiGroups: ['widgets.example'], resources: ['widgets'], verbs: ['get'] }],
      },
    });
    assert.equal(created.status, 201, created.text);
    await eventually(
      async () => hasRule((await getRole('view')).rules, 'widgets.example', 'widgets', 'get'),
      'view has widgets',
    );
    await eventually(
      async () => hasRule((await getRole('admin')).rules, 'widgets.example', 'widgets', 'get'),
      'admin has widgets',
    );
    // Manual rules on an aggregating role are overwritten.
    const view = await s.api.admin('GET', `${RBAC}/clusterroles/view`);
    const put = await s.api.admin('PUT', `${RBAC}/clusterroles/view`, {
      body: { ...view.json(), rules: [{ apiGroups: ['x'], resources: ['y'], verbs: ['get'] }] },
    });
    assert.equal(put.status, 200, put.text);
    await eventually(async () => {
      const rules = (await getRole('view')).rules;
      return !hasRule(rules, 'x', 'y', 'get') && hasRule(rules, 'widgets.example', 'widgets', 'get');
    }, 'view is aggregated again');
  });

  it('restores missing rules of default roles at restart, unless autoupdate is false', async () => {
    const edit = async (name: string, change: (o: Record<string, unknown>) => void) => {
      const o = (await s.api.admin('GET', `${RBAC}/clusterroles/${name}`)).json();
      change(o);
      const r = await s.api.admin('PUT', `${RBAC}/clusterroles/${name}`, { body: o });
      assert.equal(r.status, 200, r.text);
    };
    const mine: Rule = { apiGroups: [''], resources: ['pods'], verbs: ['get'] };
    await edit('system:basic-user', (o) => {
      o.rules = [mine];
    });
    await edit('system:discovery', (o) => {
      o.rules = [mine];
      (o.metadata as { annotations: Record<string, string> }).annotations[AUTOUPDATE] = 'false';
    });
    await s.server.close();
    s = await start();
    const basic = await getRole('system:basic-user');
    assert.deepEqual(basic.rules?.[0], mine);
    assert.ok(
      hasRule(basic.rules, 'authorization.orch.io', 'selfsubjectaccessreviews', 'create'),
      JSON.stringify(basic),
    );
    assert.ok(hasRule(basic.rules, 'authentication.orch.io', 'selfsubjectreviews', 'create'), JSON.stringify(basic));
    assert.equal(basic.metadata.labels?.[BOOTSTRAPPING], 'rbac-defaults');
    const discovery = await getRole('system:discovery');
    assert.deepEqual(discovery.rules, [mine]);
  });
});

describe('default RBAC policy under the k8s.io profile, without RBAC authorization', () => {
  let s: InProcessServer;
  before(async () => {
    s = await startInProcess({ apiDomain: 'k8s.io', runControllers: false });
  });
  after(() => s.stop());

  it("creates kube's objects with kube's names whatever the authorization mode", async () => {
    const rbac = '/apis/rbac.authorization.k8s.io/v1';
    const scheduler = await s.api.admin('GET', `${rbac}/clusterroles/system:kube-scheduler`);
    assert.equal(scheduler.status, 200, scheduler.text);
    assert.equal(scheduler.json().metadata.labels['kubernetes.io/bootstrapping'], 'rbac-defaults');
    assert.equal(scheduler.json().metadata.annotations['rbac.authorization.kubernetes.io/autoupdate'], 'true');
    assert.deepEqual(scheduler.json().rules[2].resourceNames, ['kube-scheduler']);
    const dns = await s.api.admin('GET', `${rbac}/clusterrolebindings/system:kube-dns`);
    assert.deepEqual(dns.json().subjects, [{ kind: 'ServiceAccount', name: 'kube-dns', namespace: 'kube-system' }]);
    const view = await s.api.admin('GET', `${rbac}/clusterroles/view`);
    assert.deepEqual(view.json().aggregationRule, {
      clusterRoleSelectors: [{ matchLabels: { 'rbac.authorization.k8s.io/aggregate-to-view': 'true' } }],
    });
  });
});

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type InProcessServer, startInProcess } from '../pipeline/server-fixture.js';
import { eventually } from '../support/eventually.js';

const RBAC = '/apis/rbac.authorization.orch.io/v1';
const RBAC_V1 = 'rbac.authorization.orch.io/v1';
type Creds = { ca: string; cert: string; key: string };

describe('RBAC authorization mode', () => {
  let s: InProcessServer;
  let alice: Creds;
  let bob: Creds;
  const status = async (creds: Creds, method: string, path: string, body?: object) =>
    (await s.api.admin(method, path, { as: creds, ...(body ? { body } : {}) })).status;

  before(async () => {
    s = await startInProcess({ runControllers: false, authorizationModes: ['RBAC'] });
    alice = await s.userCredentials('alice', ['dev']);
    bob = await s.userCredentials('bob');
    for (const ns of ['team', 'other']) {
      assert.equal((await s.api.admin('POST', '/api/v1/namespaces', { body: { metadata: { name: ns } } })).status, 201);
      await s.api.admin('POST', `/api/v1/namespaces/${ns}/configmaps`, { body: { metadata: { name: 'settings' } } });
      await s.api.admin('POST', `/api/v1/namespaces/${ns}/configmaps`, { body: { metadata: { name: 'private' } } });
    }
  });
  after(() => s.stop());

  it('denies by default with kube-apiserver’s wording; system:masters passes', async () => {
    const r = await s.api.admin('GET', '/api/v1/namespaces/team/configmaps', { as: alice });
    assert.equal(r.status, 403);
    assert.equal(
      r.json().message,
      'configmaps is forbidden: User "alice" cannot list resource "configmaps" in API group "" in the namespace "team"',
    );
    assert.equal((await s.api.admin('GET', '/api/v1/namespaces/team/configmaps')).status, 200);
  });

  it('a Role bound in a namespace grants there only; a ClusterRole bound by a RoleBinding too', async () => {
    const role = await s.api.admin('POST', `${RBAC}/namespaces/team/roles`, {
      body: {
        apiVersion: RBAC_V1,
        kind: 'Role',
        metadata: { name: 'cm-reader' },
        rules: [{ apiGroups: [''], resources: ['configmaps'], verbs: ['get', 'list'] }],
      },
    });
    assert.equal(role.status, 201, role.text);
    const binding = await s.api.admin('POST', `${RBAC}/namespaces/team/rolebindings`, {
      body: {
        apiVersion: RBAC_V1,
        kind: 'RoleBinding',
        metadata: { name: 'dev-reads' },
        roleRef: { apiGroup: 'rbac.authorization.orch.io', kind: 'Role', name: 'cm-reader' },
        subjects: [{ kind: 'Group', name: 'dev' }],
      },
    });
    assert.equal(binding.status, 201, binding.text);
    await eventually(
      async () => (await status(alice, 'GET', '/api/v1/namespaces/team/configmaps')) === 200,
      'the binding reaches the authorizer',
    );
    assert.equal(await status(alice, 'GET', '/api/v1/namespaces/team/configmaps/settings'), 200);
    assert.equal(await status(alice, 'GET', '/api/v1/namespaces/other/configmaps'), 403);
    assert.equal(await status(alice, 'DELETE', '/api/v1/namespaces/team/configmaps/settings'), 403);
    assert.equal(await status(bob, 'GET', '/api/v1/namespaces/team/configmaps'), 403);
  });

  it('resourceNames limit gets to the named object and lists to a metadata.name field selector', async () => {
    await s.api.admin('POST', `${RBAC}/clusterroles`, {
      body: {
        apiVersion: RBAC_V1,
        kind: 'ClusterRole',
        metadata: { name: 'settings-reader' },
        rules: [{ apiGroups: [''], resources: ['configmaps'], resourceNames: ['settings'], verbs: ['get', 'list'] }],
      },
    });
    await s.api.admin('POST', `${RBAC}/namespaces/other/rolebindings`, {
      body: {
        apiVersion: RBAC_V1,
        kind: 'RoleBinding',
        metadata: { name: 'bob-settings' },
        roleRef: { apiGroup: 'rbac.authorization.orch.io', kind: 'ClusterRole', name: 'settings-reader' },
        subjects: [{ kind: 'User', name: 'bob' }],
      },
    });
    await eventually(
      async () => (await status(bob, 'GET', '/api/v1/namespaces/other/configmaps/settings')) === 200,
      'bob may read settings',
    );
    assert.equal(await status(bob, 'GET', '/api/v1/namespaces/other/configmaps/private'), 403);
    assert.equal(await status(bob, 'GET', '/api/v1/namespaces/other/configmaps'), 403);
    assert.equal(
      await status(bob, 'GET', '/api/v1/namespaces/other/configmaps?fieldSelector=metadata.name%3Dsettings'),
      200,
    );
    assert.equal(await status(bob, 'GET', '/api/v1/namespaces/team/configmaps/settings'), 403);
  });

  it('ClusterRoleBindings grant everywhere, non-resource URLs included; deleting a binding revokes', async () => {
    await s.api.admin('POST', `${RBAC}/clusterroles`, {
      body: {
        apiVersion: RBAC_V1,
        kind: 'ClusterRole',
        metadata: { name: 'health' },
        rules: [{ nonResourceURLs: ['/readyz/*'], verbs: ['get'] }],
      },
    });
    await s.api.admin('POST', `${RBAC}/clusterrolebindings`, {
      body: {
        apiVersion: RBAC_V1,
        kind: 'ClusterRoleBinding',
        metadata: { name: 'bob-health' },
        roleRef: { apiGroup: 'rbac.authorization.orch.io', kind: 'ClusterRole', name: 'health' },
        subjects: [{ kind: 'User', name: 'bob' }],
      },
    });
    // /healthz, /livez and /readyz themselves are public (system:public-info-viewer); their checks are not.
    await eventually(async () => (await status(bob, 'GET', '/readyz/etcd')) === 200, 'bob may read /readyz/etcd');
    const livez = await s.api.admin('GET', '/livez/etcd', { as: bob });
    assert.equal(livez.status, 403);
    assert.equal(livez.json().message, 'forbidden: User "bob" cannot get path "/livez/etcd"');
    assert.equal((await s.api.admin('DELETE', `${RBAC}/clusterrolebindings/bob-health`)).status, 200);
    await eventually(async () => (await status(bob, 'GET', '/readyz/etcd')) === 403, 'the grant is gone');
  });

  it('roleRef cannot change (422)', async () => {
    const r = await s.api.admin('PATCH', `${RBAC}/namespaces/team/rolebindings/dev-reads`, {
      headers: { 'content-type': 'application/merge-patch+json' },
      body: { roleRef: { apiGroup: 'rbac.authorization.orch.io', kind: 'ClusterRole', name: 'view' } },
    });
    assert.equal(r.status, 422);
    assert.match(r.json().message, /roleRef: Invalid value: .*cannot change roleRef/);
  });

  it('SelfSubjectRulesReview lists what RBAC grants in a namespace', async () => {
    const r = await s.api.admin('POST', '/apis/authorization.orch.io/v1/selfsubjectrulesreviews', {
      as: alice,
      body: { apiVersion: 'authorization.orch.io/v1', kind: 'SelfSubjectRulesReview', spec: { namespace: 'team' } },
    });
    // Every authenticated user may create it (system:basic-user).
    assert.equal(r.status, 201, r.text);
    const rules = r.json().status.resourceRules as object[];
    assert.ok(
      rules.some(
        (x) =>
          JSON.stringify(x) === JSON.stringify({ verbs: ['get', 'list'], apiGroups: [''], resources: ['configmaps'] }),
      ),
      JSON.stringify(rules),
    );
    assert.ok(
      rules.some((x) => JSON.stringify(x).includes('selfsubjectaccessreviews')),
      JSON.stringify(rules),
    );
  });
});

describe('RBAC escalation prevention', () => {
  let s: InProcessServer;
  let carol: Creds;
  const post = (path: string, body: object, as?: Creds) => s.api.admin('POST', path, { ...(as ? { as } : {}), body });
  const role = (name: string, rules: object[]) => ({ apiVersion: RBAC_V1, kind: 'Role', metadata: { name }, rules });
  const binding = (name: string, kind: string, roleName: string) => ({
    apiVersion: RBAC_V1,
    kind: 'RoleBinding',
    metadata: { name },
    roleRef: { apiGroup: 'rbac.authorization.orch.io', kind, name: roleName },
    subjects: [{ kind: 'User', name: 'dave' }],
  });

  before(async () => {
    s = await startInProcess({ runControllers: false, authorizationModes: ['RBAC'] });
    carol = await s.userCredentials('carol');
    await s.api.admin('POST', '/api/v1/namespaces', { body: { metadata: { name: 'esc' } } });
    // carol may manage RBAC objects and read config maps in "esc", nothing more.
    await post(
      `${RBAC}/namespaces/esc/roles`,
      role('rbac-manager', [
        {
          apiGroups: ['rbac.authorization.orch.io'],
          resources: ['roles', 'rolebindings'],
          verbs: ['create', 'update', 'get'],
        },
        { apiGroups: [''], resources: ['configmaps'], verbs: ['get', 'list'] },
      ]),
    );
    await post(`${RBAC}/namespaces/esc/rolebindings`, {
      ...binding('carol', 'Role', 'rbac-manager'),
      subjects: [{ kind: 'User', name: 'carol' }],
    });
    await post(`${RBAC}/clusterroles`, {
      apiVersion: RBAC_V1,
      kind: 'ClusterRole',
      metadata: { name: 'secret-reader' },
      rules: [{ apiGroups: [''], resources: ['secrets'], verbs: ['get'] }],
    });
    await eventually(
      async () => (await s.api.admin('GET', '/api/v1/namespaces/esc/configmaps', { as: carol })).status === 200,
      "carol's binding reaches the authorizer",
    );
  });
  after(() => s.stop());

  it('a role within what the creator holds is accepted; beyond it is a 403 listing what is missing', async () => {
    const ok = await post(
      `${RBAC}/namespaces/esc/roles`,
      role('cm-get', [{ apiGroups: [''], resources: ['configmaps'], verbs: ['get'] }]),
      carol,
    );
    assert.equal(ok.status, 201, ok.text);
    const bad = await post(
      `${RBAC}/namespaces/esc/roles`,
      role('too-much', [{ apiGroups: [''], resources: ['configmaps', 'secrets'], verbs: ['get', 'delete'] }]),
      carol,
    );
    assert.equal(bad.status, 403);
    assert.equal(
      bad.json().message,
      'roles.rbac.authorization.orch.io "too-much" is forbidden: user "carol" (groups=["system:authenticated"]) is attempting to grant RBAC permissions not currently held:\n' +
        '{APIGroups:[""], Resources:["configmaps"], Verbs:["delete"]}\n' +
        '{APIGroups:[""], Resources:["secrets"], Verbs:["get" "delete"]}',
    );
  });

  it('a binding needs the referenced role’s permissions or bind; a missing role is 404', async () => {
    const ok = await post(`${RBAC}/namespaces/esc/rolebindings`, binding('dave-cm', 'Role', 'cm-get'), carol);
    assert.equal(ok.status, 201, ok.text);
    const bad = await post(
      `${RBAC}/namespaces/esc/rolebindings`,
      binding('dave-secrets', 'ClusterRole', 'secret-reader'),
      carol,
    );
    assert.equal(bad.status, 403);
    assert.match(
      bad.json().message,
      /^rolebindings\.rbac\.authorization\.orch\.io "dave-secrets" is forbidden: user "carol" .*\n\{APIGroups:\[""\], Resources:\["secrets"\], Verbs:\["get"\]\}$/,
    );
    const missing = await post(
      `${RBAC}/namespaces/esc/rolebindings`,
      binding('dave-none', 'ClusterRole', 'nope'),
      carol,
    );
    assert.equal(missing.status, 404);
    assert.equal(missing.json().message, 'clusterroles.rbac.authorization.orch.io "nope" not found');
  });

  it('bind on the role, or escalate on roles, lets the holder grant more than it has', async () => {
    await post(
      `${RBAC}/namespaces/esc/roles`,
      role('grantor', [
        {
          apiGroups: ['rbac.authorization.orch.io'],
          resources: ['clusterroles'],
          resourceNames: ['secret-reader'],
          verbs: ['bind'],
        },
        { apiGroups: ['rbac.authorization.orch.io'], resources: ['roles'], verbs: ['escalate'] },
      ]),
    );
    await post(`${RBAC}/namespaces/esc/rolebindings`, {
      ...binding('carol-grantor', 'Role', 'grantor'),
      subjects: [{ kind: 'User', name: 'carol' }],
    });
    await eventually(async () => {
      const r = await post(
        `${RBAC}/namespaces/esc/rolebindings`,
        binding('dave-secrets', 'ClusterRole', 'secret-reader'),
        carol,
      );
      return r.status === 201;
    }, 'bind lets carol bind secret-reader');
    const escalated = await post(
      `${RBAC}/namespaces/esc/roles`,
      role('secrets-too', [{ apiGroups: [''], resources: ['secrets'], verbs: ['list'] }]),
      carol,
    );
    assert.equal(escalated.status, 201, escalated.text);
  });
});

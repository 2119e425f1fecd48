import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { type InProcessServer, startInProcess } from '../pipeline/server-fixture.js';

const RBAC = '/apis/rbac.authorization.orch.io/v1';
const BOOTSTRAPPING = 'orch.io/bootstrapping';
const AUTOUPDATE = 'rbac.authorization.orch.io/autoupdate';

describe('default Roles and RoleBindings of the system and public namespaces', () => {
  let dataDir: string;
  let s: InProcessServer;
  const start = () => startInProcess({ dataDir, authorizationModes: ['RBAC'], runControllers: false });
  const get = async (path: string) => {
    const r = await s.api.admin('GET', path);
    assert.equal(r.status, 200, `${path}: ${r.text}`);
    return r.json();
  };
  const names = async (path: string) =>
    (
      (await get(`${path}?labelSelector=${encodeURIComponent(`${BOOTSTRAPPING}=rbac-defaults`)}`)).items as {
        metadata: { namespace: string; name: string };
      }[]
    )
      .map((i) => `${i.metadata.namespace}/${i.metadata.name}`)
      .sort();
  const allowed = async (user: string, attrs: Record<string, string>) => {
    const r = await s.api.admin('POST', '/apis/authorization.orch.io/v1/subjectaccessreviews', {
      body: {
        apiVersion: 'authorization.orch.io/v1',
        kind: 'SubjectAccessReview',
        spec: { user, groups: ['system:authenticated'], resourceAttributes: attrs },
      },
    });
    assert.equal(r.status, 201, r.text);
    return r.json().status.allowed as boolean;
  };

  before(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'orch-rbac-ns-defaults-'));
    s = await start();
  });
  after(async () => {
    await s.stop();
    await rm(dataDir, { recursive: true, force: true });
  });

  it("creates kube's namespaced roles and bindings under Orch's names", async () => {
    assert.deepEqual(await names(`${RBAC}/roles`), [
      'orch-public/system:controller:bootstrap-signer',
      'orch-system/extension-apiserver-authentication-reader',
      'orch-system/system::leader-locking-orch-controller-manager',
      'orch-system/system::leader-locking-orch-scheduler',
      'orch-system/system:controller:bootstrap-signer',
      'orch-system/system:controller:cloud-provider',
      'orch-system/system:controller:token-cleaner',
    ]);
    assert.deepEqual(await names(`${RBAC}/rolebindings`), [
      'orch-public/system:controller:bootstrap-signer',
      'orch-system/system::extension-apiserver-authentication-reader',
      'orch-system/system::leader-locking-orch-controller-manager',
      'orch-system/system::leader-locking-orch-scheduler',
      'orch-system/system:controller:bootstrap-signer',
      'orch-system/system:controller:cloud-provider',
      'orch-system/system:controller:token-cleaner',
    ]);
    const reader = await get(
      `${RBAC}/namespaces/orch-system/rolebindings/system::extension-apiserver-authentication-reader`,
    );
    assert.equal(reader.metadata.annotations[AUTOUPDATE], 'true');
    assert.deepEqual(reader.roleRef, {
      apiGroup: 'rbac.authorization.orch.io',
      kind: 'Role',
      name: 'extension-apiserver-authentication-reader',
    });
    assert.deepEqual(reader.subjects, [
      { apiGroup: 'rbac.authorization.orch.io', kind: 'User', name: 'system:orch-controller-manager' },
      { apiGroup: 'rbac.authorization.orch.io', kind: 'User', name: 'system:orch-scheduler' },
    ]);
    const locking = await get(`${RBAC}/namespaces/orch-system/roles/system::leader-locking-orch-scheduler`);
    assert.deepEqual(locking.rules[1], {
      apiGroups: [''],
      resources: ['configmaps'],
      resourceNames: ['orch-scheduler'],
      verbs: ['get', 'update'],
    });
    assert.deepEqual(locking.rules[3].resources, ['leasecandidates']);
  });

  it('grants what they say, in their namespace only', async () => {
    const leases = { verb: 'list', group: 'coordination.orch.io', resource: 'leases' };
    assert.equal(await allowed('system:orch-scheduler', { ...leases, namespace: 'orch-system' }), true);
    assert.equal(await allowed('system:orch-scheduler', { ...leases, namespace: 'default' }), false);
    const secrets = { verb: 'list', resource: 'secrets', namespace: 'orch-system' };
    assert.equal(await allowed('system:serviceaccount:orch-system:token-cleaner', secrets), true);
    assert.equal(
      await allowed('system:serviceaccount:orch-system:token-cleaner', { ...secrets, namespace: 'default' }),
      false,
    );
    const clusterInfo = { verb: 'update', resource: 'configmaps', namespace: 'orch-public' };
    const signer = 'system:serviceaccount:orch-system:bootstrap-signer';
    assert.equal(await allowed(signer, { ...clusterInfo, name: 'cluster-info' }), true);
    assert.equal(await allowed(signer, { ...clusterInfo, name: 'other' }), false);
  });

  it('are reconciled at start like the cluster roles, unless autoupdate is false', async () => {
    const system = `${RBAC}/namespaces/orch-system`;
    const del = await s.api.admin('DELETE', `${system}/roles/system:controller:token-cleaner`);
    assert.equal(del.status, 200, del.text);
    const binding = await get(`${system}/rolebindings/system::leader-locking-orch-scheduler`);
    binding.subjects = [{ kind: 'ServiceAccount', name: 'mine', namespace: 'orch-system' }];
    assert.equal(
      (await s.api.admin('PUT', `${system}/rolebindings/system::leader-locking-orch-scheduler`, { body: binding }))
        .status,
      200,
    );
    const cloud = await get(`${system}/roles/system:controller:cloud-provider`);
    cloud.rules = [];
    cloud.metadata.annotations[AUTOUPDATE] = 'false';
    assert.equal(
      (await s.api.admin('PUT', `${system}/roles/system:controller:cloud-provider`, { body: cloud })).status,
      200,
    );

    await s.server.close();
    s = await start();
    const cleaner = await get(`${system}/roles/system:controller:token-cleaner`);
    assert.equal(cleaner.metadata.labels[BOOTSTRAPPING], 'rbac-defaults');
    assert.deepEqual(cleaner.rules[0].verbs, ['delete', 'get', 'list', 'watch']);
    const restored = await get(`${system}/rolebindings/system::leader-locking-orch-scheduler`);
    assert.deepEqual(
      restored.subjects.map((x: { kind: string; name: string }) => `${x.kind} ${x.name}`),
      ['ServiceAccount mine', 'User system:orch-scheduler', 'ServiceAccount orch-scheduler'],
    );
    assert.deepEqual((await get(`${system}/roles/system:controller:cloud-provider`)).rules ?? [], []);
  });
});

describe('default namespaced roles under the k8s.io profile', () => {
  let s: InProcessServer;
  before(async () => {
    s = await startInProcess({ apiDomain: 'k8s.io', runControllers: false });
  });
  after(() => s?.stop());

  it("carry kube's names", async () => {
    const rbac = '/apis/rbac.authorization.k8s.io/v1';
    const r = await s.api.admin(
      'GET',
      `${rbac}/namespaces/kube-system/roles/system::leader-locking-kube-controller-manager`,
    );
    assert.equal(r.status, 200, r.text);
    assert.equal(r.json().metadata.labels['kubernetes.io/bootstrapping'], 'rbac-defaults');
    assert.deepEqual(r.json().rules[1].resourceNames, ['kube-controller-manager']);
    const b = await s.api.admin(
      'GET',
      `${rbac}/namespaces/kube-public/rolebindings/system:controller:bootstrap-signer`,
    );
    assert.equal(b.status, 200, b.text);
    assert.deepEqual(b.json().subjects, [
      { kind: 'ServiceAccount', name: 'bootstrap-signer', namespace: 'kube-system' },
    ]);
  });
});

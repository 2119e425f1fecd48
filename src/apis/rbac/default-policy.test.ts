import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { apiDomain } from '../api-domain.js';
import { defaultPolicy } from './default-policy.js';
import type { ClusterRole } from './rbac-types.js';

const ROOT = join(import.meta.dirname, '..', '..', '..');
const FACTS = join(ROOT, 'scripts', 'rbac-defaults');

function generate(factsDir?: string): { status: number | null; stdout: string; stderr: string } {
  const args = [join('scripts', 'rbac-defaults', 'generate.ts'), '--stdout'];
  if (factsDir) args.push(`--facts=${factsDir}`);
  return spawnSync(process.execPath, ['--import', 'tsx', ...args], { cwd: ROOT, encoding: 'utf8' });
}

describe('the default RBAC policy generator', () => {
  const dir = mkdtempSync(join(tmpdir(), 'orch-rbac-defaults-'));
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('reproduces the committed module exactly from the committed facts', () => {
    const run = generate();
    assert.equal(run.status, 0, run.stderr);
    assert.equal(run.stdout, readFileSync(join(ROOT, 'src', 'apis', 'rbac', 'default-policy.generated.ts'), 'utf8'));
  });

  const refusals: [string, string, string, string][] = [
    [
      'a domain-derived name it cannot map',
      'cluster-roles.yaml',
      '- name: kubernetes-admin\n',
      'cluster-roles.yaml[0].name: "kubernetes-admin": no mapping',
    ],
    ['an unknown field', 'cluster-roles.yaml', '- name: x\n  rule: []\n', 'cluster-roles.yaml[0].rule: unknown field'],
    [
      'a namespaced role without its namespace',
      'namespace-roles.yaml',
      '- name: x\n  rules: []\n',
      'namespace-roles.yaml[0].namespace: expected a string',
    ],
    [
      'a malformed subject',
      'cluster-role-bindings.yaml',
      '- role: x\n  subjects: [Robot r2d2]\n',
      'cluster-role-bindings.yaml[0].subjects[0]: expected "User name"',
    ],
  ];
  for (const [what, file, content, message] of refusals) {
    it(`refuses ${what}, naming the place`, () => {
      const facts = join(dir, what.replaceAll(' ', '-'));
      cpSync(FACTS, facts, { recursive: true });
      writeFileSync(join(facts, file), content);
      const run = generate(facts);
      assert.equal(run.status, 1);
      assert.equal(run.stdout, '');
      assert.ok(run.stderr.includes(message), run.stderr);
    });
  }
});

describe('defaultPolicy', () => {
  const byName = <T extends { metadata: { name?: string } }>(items: T[], name: string): T => {
    const found = items.find((i) => i.metadata.name === name);
    assert.ok(found, `${name} is missing`);
    return found;
  };

  it("equals kube's names under the k8s.io profile", () => {
    const p = defaultPolicy(apiDomain('k8s.io'));
    const admin = byName(p.clusterRoles, 'cluster-admin');
    assert.equal(admin.apiVersion, 'rbac.authorization.k8s.io/v1');
    assert.deepEqual(admin.metadata.labels, { 'kubernetes.io/bootstrapping': 'rbac-defaults' });
    assert.deepEqual(admin.metadata.annotations, { 'rbac.authorization.kubernetes.io/autoupdate': 'true' });
    const scheduler = byName(p.clusterRoles, 'system:kube-scheduler');
    assert.deepEqual(scheduler.rules?.[2], {
      apiGroups: ['coordination.k8s.io'],
      resources: ['leases'],
      resourceNames: ['kube-scheduler'],
      verbs: ['get', 'update'],
    });
    const approver = byName(p.clusterRoles, 'system:certificates.k8s.io:kube-apiserver-client-approver');
    assert.deepEqual(approver.rules?.[0].resourceNames, ['kubernetes.io/kube-apiserver-client']);
    assert.deepEqual(byName(p.clusterRoles, 'view').aggregationRule, {
      clusterRoleSelectors: [{ matchLabels: { 'rbac.authorization.k8s.io/aggregate-to-view': 'true' } }],
    });
    assert.equal(byName(p.clusterRoles, 'view').rules, undefined);
    assert.equal(
      byName(p.clusterRoles, 'edit').metadata.labels?.['rbac.authorization.k8s.io/aggregate-to-admin'],
      'true',
    );
    assert.deepEqual(byName(p.clusterRoleBindings, 'cluster-admin').subjects, [
      { kind: 'Group', apiGroup: 'rbac.authorization.k8s.io', name: 'system:masters' },
    ]);
    assert.deepEqual(byName(p.clusterRoleBindings, 'system:kube-dns').subjects, [
      { kind: 'ServiceAccount', name: 'kube-dns', namespace: 'kube-system' },
    ]);
    assert.deepEqual(byName(p.clusterRoleBindings, 'system:volume-scheduler').subjects, [
      { kind: 'User', apiGroup: 'rbac.authorization.k8s.io', name: 'system:kube-scheduler' },
    ]);
    assert.deepEqual(byName(p.clusterRoleBindings, 'system:node').subjects, []);
    assert.deepEqual(byName(p.clusterRoleBindings, 'system:public-info-viewer').roleRef, {
      apiGroup: 'rbac.authorization.k8s.io',
      kind: 'ClusterRole',
      name: 'system:public-info-viewer',
    });
    const cleaner = byName(p.clusterRoles, 'system:controller:legacy-service-account-token-cleaner');
    assert.deepEqual(cleaner.rules?.[0].resourceNames, ['kube-apiserver-legacy-service-account-token-tracking']);
    // Every controller role is bound to the controller's service account.
    for (const role of p.clusterRoles.filter((r) => r.metadata.name?.startsWith('system:controller:'))) {
      assert.deepEqual(byName(p.clusterRoleBindings, role.metadata.name ?? '').subjects, [
        {
          kind: 'ServiceAccount',
          name: role.metadata.name?.slice('system:controller:'.length),
          namespace: 'kube-system',
        },
      ]);
    }
    // Every binding references a default role.
    for (const b of p.clusterRoleBindings) byName(p.clusterRoles, b.roleRef.name);
  });

  it("uses Orch's names under the orch.io profile and leaves no kube name behind", () => {
    const p = defaultPolicy(apiDomain('orch.io'));
    const scheduler = byName(p.clusterRoles, 'system:orch-scheduler');
    assert.deepEqual(scheduler.rules?.[2].resourceNames, ['orch-scheduler']);
    assert.deepEqual(byName(p.clusterRoles, 'system:basic-user').rules?.[0].apiGroups, ['authorization.orch.io']);
    assert.deepEqual(byName(p.clusterRoles, 'cluster-admin').metadata, {
      name: 'cluster-admin',
      labels: { 'orch.io/bootstrapping': 'rbac-defaults' },
      annotations: { 'rbac.authorization.orch.io/autoupdate': 'true' },
    });
    byName(p.clusterRoles, 'system:certificates.orch.io:orch-apiserver-client-approver');
    assert.deepEqual(byName(p.clusterRoleBindings, 'system:orch-dns').subjects, [
      { kind: 'ServiceAccount', name: 'orch-dns', namespace: 'orch-system' },
    ]);
    assert.deepEqual(byName(p.clusterRoleBindings, 'system:controller:clusterrole-aggregation-controller').subjects, [
      { kind: 'ServiceAccount', name: 'clusterrole-aggregation-controller', namespace: 'orch-system' },
    ]);
    const text = JSON.stringify(p);
    assert.doesNotMatch(text, /k8s\.io|kubernetes|\bkube-/);
  });

  it("holds kube's Roles and RoleBindings of the system and public namespaces, each binding a Role beside it", () => {
    const p = defaultPolicy(apiDomain('k8s.io'));
    const where = (o: { metadata: { namespace?: string; name?: string } }) =>
      `${o.metadata.namespace}/${o.metadata.name}`;
    assert.deepEqual(p.roles.map(where), [
      'kube-public/system:controller:bootstrap-signer',
      'kube-system/extension-apiserver-authentication-reader',
      'kube-system/system::leader-locking-kube-controller-manager',
      'kube-system/system::leader-locking-kube-scheduler',
      'kube-system/system:controller:bootstrap-signer',
      'kube-system/system:controller:cloud-provider',
      'kube-system/system:controller:token-cleaner',
    ]);
    const reader = p.roleBindings[1];
    assert.equal(where(reader), 'kube-system/system::extension-apiserver-authentication-reader');
    assert.equal(reader.kind, 'RoleBinding');
    assert.deepEqual(reader.roleRef, {
      apiGroup: 'rbac.authorization.k8s.io',
      kind: 'Role',
      name: 'extension-apiserver-authentication-reader',
    });
    assert.deepEqual(reader.metadata.labels, { 'kubernetes.io/bootstrapping': 'rbac-defaults' });
    for (const b of p.roleBindings) {
      assert.ok(
        p.roles.some((r) => r.metadata.namespace === b.metadata.namespace && r.metadata.name === b.roleRef.name),
        where(b),
      );
    }
    const orch = defaultPolicy(apiDomain('orch.io'));
    assert.equal(where(orch.roles[0]), 'orch-public/system:controller:bootstrap-signer');
    assert.deepEqual(orch.roleBindings[2].subjects?.[1], {
      kind: 'ServiceAccount',
      name: 'orch-controller-manager',
      namespace: 'orch-system',
    });
  });

  it('returns fresh objects on every call', () => {
    const d = apiDomain('orch.io');
    const first = byName(defaultPolicy(d).clusterRoles, 'cluster-admin') as ClusterRole;
    first.rules?.push({ verbs: ['get'], nonResourceURLs: ['/x'] });
    assert.equal(byName(defaultPolicy(d).clusterRoles, 'cluster-admin').rules?.length, 2);
  });
});

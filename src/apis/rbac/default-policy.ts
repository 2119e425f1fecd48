import type { ApiDomain } from '../api-domain.js';
import {
  defaultClusterRoleBindingFacts,
  defaultClusterRoleFacts,
  defaultRoleBindingFacts,
  defaultRoleFacts,
} from './default-policy.generated.js';
import type { DefaultBindingFacts } from './default-policy-facts.js';
import type { ClusterRole, ClusterRoleBinding, Role, RoleBinding, Subject } from './rbac-types.js';

/** kube-apiserver's default policy, under one API domain. */
export interface DefaultPolicy {
  readonly clusterRoles: ClusterRole[];
  readonly clusterRoleBindings: ClusterRoleBinding[];
  /** Roles of the system and public namespaces. */
  readonly roles: Role[];
  /** RoleBindings of the system and public namespaces, each of a Role of its namespace. */
  readonly roleBindings: RoleBinding[];
}

/** The label every default object carries: `<key domain>/bootstrapping: rbac-defaults`. */
export function bootstrappingLabel(domain: ApiDomain): { key: string; value: string } {
  return { key: domain.key('', 'bootstrapping'), value: 'rbac-defaults' };
}

/** The annotation that lets start-up reconcile an object (`"true"`) or leaves it alone (`"false"`). */
export function autoupdateAnnotation(domain: ApiDomain): string {
  return domain.key('rbac.authorization', 'autoupdate');
}

/**
 * kube-apiserver v1.32's default ClusterRoles (its bootstrap policy plus the roles of the
 * controllers Orch runs in process) and ClusterRoleBindings, and its Roles and RoleBindings of
 * the system and public namespaces, every domain-derived name taken from `domain`: under
 * `k8s.io` they equal kube's objects; under `orch.io` `k8s.io` groups and `kubernetes.io` keys
 * become Orch's. Each object carries the bootstrapping label and `autoupdate: "true"`;
 * aggregating roles (`admin`, `edit`, `view`) have no rules of their own. Fresh objects on every
 * call.
 */
export function defaultPolicy(domain: ApiDomain): DefaultPolicy {
  const group = domain.group('rbac.authorization');
  const apiVersion = `${group}/v1`;
  const label = bootstrappingLabel(domain);
  const metadata = (name: string, labels?: Readonly<Record<string, string>>, namespace?: string) => ({
    name,
    ...(namespace === undefined ? {} : { namespace }),
    labels: { [label.key]: label.value, ...labels },
    annotations: { [autoupdateAnnotation(domain)]: 'true' },
  });
  const clusterRoles = defaultClusterRoleFacts(domain).map((f): ClusterRole => {
    const role: ClusterRole = { apiVersion, kind: 'ClusterRole', metadata: metadata(f.name, f.labels) };
    if (f.aggregateFrom !== undefined) {
      role.aggregationRule = { clusterRoleSelectors: [{ matchLabels: { [f.aggregateFrom]: 'true' } }] };
    }
    if (f.rules !== undefined) role.rules = f.rules.map((r) => structuredClone(r));
    return role;
  });
  const subjectOf = (s: DefaultBindingFacts['subjects'][number]): Subject =>
    s.kind === 'ServiceAccount'
      ? { kind: s.kind, name: s.name, namespace: s.namespace }
      : { kind: s.kind, apiGroup: group, name: s.name };
  const binding = (f: DefaultBindingFacts, kind: 'ClusterRoleBinding' | 'RoleBinding'): RoleBinding => ({
    apiVersion,
    kind,
    metadata: metadata(f.name ?? f.role, undefined, f.namespace),
    roleRef: { apiGroup: group, kind: kind === 'RoleBinding' ? 'Role' : 'ClusterRole', name: f.role },
    subjects: f.subjects.map(subjectOf),
  });
  const clusterRoleBindings = defaultClusterRoleBindingFacts(domain).map((f) => binding(f, 'ClusterRoleBinding'));
  const roles = defaultRoleFacts(domain).map(
    (f): Role => ({
      apiVersion,
      kind: 'Role',
      metadata: metadata(f.name, undefined, f.namespace),
      rules: (f.rules ?? []).map((r) => structuredClone(r)),
    }),
  );
  const roleBindings = defaultRoleBindingFacts(domain).map((f) => binding(f, 'RoleBinding'));
  return { clusterRoles, clusterRoleBindings, roles, roleBindings };
}

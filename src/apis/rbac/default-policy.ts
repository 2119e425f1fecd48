import type { ApiDomain } from '../api-domain.js';
import { defaultClusterRoleBindingFacts, defaultClusterRoleFacts } from './default-policy.generated.js';
import type { ClusterRole, ClusterRoleBinding, Subject } from './rbac-types.js';

/** kube-apiserver's default cluster policy, under one API domain. */
export interface DefaultPolicy {
  readonly clusterRoles: ClusterRole[];
  readonly clusterRoleBindings: ClusterRoleBinding[];
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
 * controllers Orch runs in process) and ClusterRoleBindings, every domain-derived name taken
 * from `domain`: under `k8s.io` they equal kube's objects; under `orch.io` `k8s.io` groups and
 * `kubernetes.io` keys become Orch's. Each object carries the bootstrapping label and
 * `autoupdate: "true"`; aggregating roles (`admin`, `edit`, `view`) have no rules of their own.
 * Fresh objects on every call.
 */
export function defaultPolicy(domain: ApiDomain): DefaultPolicy {
  const group = domain.group('rbac.authorization');
  const apiVersion = `${group}/v1`;
  const label = bootstrappingLabel(domain);
  const metadata = (name: string, labels?: Readonly<Record<string, string>>) => ({
    name,
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
  const clusterRoleBindings = defaultClusterRoleBindingFacts(domain).map(
    (f): ClusterRoleBinding => ({
      apiVersion,
      kind: 'ClusterRoleBinding',
      metadata: metadata(f.role),
      roleRef: { apiGroup: group, kind: 'ClusterRole', name: f.role },
      subjects: f.subjects.map(
        (s): Subject =>
          s.kind === 'ServiceAccount'
            ? { kind: s.kind, name: s.name, namespace: s.namespace }
            : { kind: s.kind, apiGroup: group, name: s.name },
      ),
    }),
  );
  return { clusterRoles, clusterRoleBindings };
}

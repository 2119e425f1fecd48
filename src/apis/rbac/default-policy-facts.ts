import type { PolicyRule } from './rbac-types.js';

/** One default ClusterRole or Role as the generated module states it (names already mapped to a domain). */
export interface DefaultRoleFacts {
  readonly name: string;
  /** The namespace of a Role; absent for ClusterRoles. */
  readonly namespace?: string;
  /** Labels besides the bootstrapping label (the `aggregate-to-*` ones). */
  readonly labels?: Readonly<Record<string, string>>;
  /** An aggregating role: the label (value `"true"`) its aggregationRule selects. */
  readonly aggregateFrom?: string;
  readonly rules?: readonly PolicyRule[];
}

/**
 * One default ClusterRoleBinding (of a ClusterRole) or RoleBinding (of a Role of its namespace),
 * named after its role unless `name` says otherwise, with User, Group or ServiceAccount subjects.
 */
export interface DefaultBindingFacts {
  readonly name?: string;
  readonly role: string;
  /** The namespace of a RoleBinding; absent for ClusterRoleBindings. */
  readonly namespace?: string;
  readonly subjects: readonly { readonly kind: string; readonly name: string; readonly namespace?: string }[];
}

import type { PolicyRule } from './rbac-types.js';

/** One default ClusterRole as the generated module states it (names already mapped to a domain). */
export interface DefaultRoleFacts {
  readonly name: string;
  /** Labels besides the bootstrapping label (the `aggregate-to-*` ones). */
  readonly labels?: Readonly<Record<string, string>>;
  /** An aggregating role: the label (value `"true"`) its aggregationRule selects. */
  readonly aggregateFrom?: string;
  readonly rules?: readonly PolicyRule[];
}

/** One default ClusterRoleBinding: named after its ClusterRole, with User, Group or ServiceAccount subjects. */
export interface DefaultBindingFacts {
  readonly role: string;
  readonly subjects: readonly { readonly kind: string; readonly name: string; readonly namespace?: string }[];
}

import type { ApiObject } from '../object.js';
import type { LabelSelectorObject } from '../selectors/label-selector-object.js';

/** One grant: verbs on resources of API groups (optionally only named objects), or on URL paths. */
export interface PolicyRule {
  readonly verbs: readonly string[];
  readonly apiGroups?: readonly string[];
  readonly resources?: readonly string[];
  readonly resourceNames?: readonly string[];
  readonly nonResourceURLs?: readonly string[];
}

/** Who a binding grants to: a `User`, a `Group`, or a `ServiceAccount` (with its namespace). */
export interface Subject {
  readonly kind: string;
  readonly name: string;
  readonly apiGroup?: string;
  readonly namespace?: string;
}

/** The role a binding grants: a `Role` of the binding's namespace or a `ClusterRole`. */
export interface RoleRef {
  readonly apiGroup: string;
  readonly kind: string;
  readonly name: string;
}

export interface Role extends ApiObject {
  rules?: PolicyRule[];
}

export interface ClusterRole extends ApiObject {
  rules?: PolicyRule[];
  aggregationRule?: { clusterRoleSelectors?: LabelSelectorObject[] };
}

export interface RoleBinding extends ApiObject {
  subjects?: Subject[];
  roleRef: RoleRef;
}

export type ClusterRoleBinding = RoleBinding;

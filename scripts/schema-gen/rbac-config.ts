import { BUILTIN_DEFAULTS, META } from './externals.js';
import type { ModuleConfig } from './module-config.js';

const RBAC = 'io.k8s.api.rbac.v1';

const RBAC_TYPES = {
  [`${RBAC}.Role`]: 'A namespaced set of permission rules that role bindings grant.',
  [`${RBAC}.ClusterRole`]: 'A cluster-wide set of permission rules, optionally aggregated from other cluster roles.',
  [`${RBAC}.RoleBinding`]: 'Grants the rules of a role or cluster role to subjects within one namespace.',
  [`${RBAC}.ClusterRoleBinding`]: 'Grants the rules of a cluster role to subjects in every namespace.',
  [`${RBAC}.PolicyRule`]: 'Verbs allowed on resources of API groups (optionally only named ones) or on URL paths.',
  [`${RBAC}.Subject`]: 'A user, group or service account that a binding grants its role to.',
  [`${RBAC}.RoleRef`]: 'The role a binding grants: its API group, kind and name.',
  [`${RBAC}.AggregationRule`]: 'Label selectors picking the cluster roles whose rules a cluster role collects.',
};

/** Orch's descriptions of the label selector types (also used by the meta module). */
export const LABEL_SELECTOR_TYPES = {
  [`${META}.LabelSelector`]: 'Selects objects by their labels; all requirements must hold.',
  [`${META}.LabelSelectorRequirement`]: 'One label requirement: a key, an operator and the values it relates.',
};

/** `rbac.authorization/v1`: Role, ClusterRole, RoleBinding, ClusterRoleBinding and what they hold. */
export const RBAC_MODULE: ModuleConfig = {
  ...BUILTIN_DEFAULTS,
  facts: 'scripts/schema-gen/upstream/rbac-v1.facts.json',
  output: 'src/apis/rbac/rbac-schemas.ts',
  command: 'npx tsx scripts/schema-gen/generate.ts rbac',
  goPackage: 'k8s.io/api/rbac/v1',
  types: RBAC_TYPES,
  uses: ['meta'],
};

/**
 * The RBAC module on its own (label selectors generated inside it), from the facts reduced from
 * kube's published OpenAPI v3 document: the reference that facts reduced from Go declarations
 * must reproduce (`src/apis/rbac/rbac-schema-generator.test.ts`).
 */
export const RBAC_STANDALONE_MODULE: ModuleConfig = {
  ...RBAC_MODULE,
  // ObjectMeta comes from the meta module, as in the RBAC module that imports it from there.
  external: {
    ...RBAC_MODULE.external,
    [`${META}.ObjectMeta`]: { names: ['objectMetaSchema'], from: 'src/apis/meta/meta-v1-schemas.ts' },
  },
  facts: 'scripts/schema-gen/upstream/rbac-v1.openapi.facts.json',
  command: 'npx tsx scripts/schema-gen/generate.ts rbac-standalone',
  types: { ...RBAC_TYPES, ...LABEL_SELECTOR_TYPES },
  uses: [],
};

import { SchemaGenError } from './facts.js';
import type { ModuleConfig } from './module-config.js';

const META = 'io.k8s.apimachinery.pkg.apis.meta.v1';
const RBAC = 'io.k8s.api.rbac.v1';

/** `rbac.authorization/v1`: Role, ClusterRole, RoleBinding, ClusterRoleBinding and what they hold. */
export const RBAC_MODULE: ModuleConfig = {
  facts: 'scripts/schema-gen/upstream/rbac-v1.facts.json',
  output: 'src/apis/rbac/rbac-schemas.ts',
  command: 'npx tsx scripts/schema-gen/generate.ts rbac',
  types: {
    [`${RBAC}.Role`]: 'A namespaced set of permission rules that role bindings grant.',
    [`${RBAC}.ClusterRole`]: 'A cluster-wide set of permission rules, optionally aggregated from other cluster roles.',
    [`${RBAC}.RoleBinding`]: 'Grants the rules of a role or cluster role to subjects within one namespace.',
    [`${RBAC}.ClusterRoleBinding`]: 'Grants the rules of a cluster role to subjects in every namespace.',
    [`${RBAC}.PolicyRule`]: 'Verbs allowed on resources of API groups (optionally only named ones) or on URL paths.',
    [`${RBAC}.Subject`]: 'A user, group or service account that a binding grants its role to.',
    [`${RBAC}.RoleRef`]: 'The role a binding grants: its API group, kind and name.',
    [`${RBAC}.AggregationRule`]: 'Label selectors picking the cluster roles whose rules a cluster role collects.',
    [`${META}.LabelSelector`]: 'Selects objects by their labels; all requirements must hold.',
    [`${META}.LabelSelectorRequirement`]: 'One label requirement: a key, an operator and the values it relates.',
  },
  external: {
    [`${META}.ObjectMeta`]: {
      field: (n) => {
        if (n !== 1) throw new SchemaGenError(`ObjectMeta is field 1 everywhere, not ${n}`);
        return 'objectMetaField()';
      },
      names: ['objectMetaField'],
      from: '../meta/object-meta-schema.js',
    },
  },
  typeMeta: { apiVersion: 'apiVersionField', kind: 'kindField', from: '../meta/object-meta-schema.js' },
  namePrefix: { upstream: 'io.k8s.', internal: 'io.orch.' },
  imports: { namedType: '../schema/named.js', schema: '../schema/schema.js' },
};

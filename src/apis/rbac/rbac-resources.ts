import { type ApiDomain, ORCH_DOMAIN } from '../api-domain.js';
import { type BuiltinResourceDefinition, STANDARD_VERBS } from '../meta/builtin-definition.js';
import { nameIsPathSegment } from '../meta/name-validation.js';
import { schemaStrategy } from '../meta/resource-strategy.js';
import type { Schema } from '../schema/schema.js';
import { hasInvalidLabelValue } from './label-selector-validation.js';
import { bindingTableColumns } from './rbac-columns.js';
import { clusterRoleBindingSchema, clusterRoleSchema, roleBindingSchema, roleSchema } from './rbac-schemas.js';
import type { ClusterRole, ClusterRoleBinding, Role, RoleBinding, Subject } from './rbac-types.js';
import { validateClusterRole, validateRole, validateRoleBinding, validateRoleRefUnchanged } from './rbac-validation.js';

/**
 * The four kinds of `rbac.authorization.<domain>/v1`. Names need only be safe path segments
 * (kube's `ValidateRBACName`); every write may create (`AllowCreateOnUpdate`); bindings default
 * the RBAC group into their role reference and user/group subjects, and never change their role.
 * Not registered among the built-in resources here: they are served with the RBAC authorizer.
 */

/**
 * The schema the strategies validate with: the published one without `required`, because kube
 * checks built-in kinds with Go validation (`verbs must contain at least one value`), not with
 * the OpenAPI `required` lists (the published schema keeps them, as kube publishes them).
 */
function withoutRequired(schema: Schema): Schema {
  const { required: _required, properties, items, ...rest } = schema;
  const out: Schema = { ...rest };
  if (properties) {
    out.properties = Object.fromEntries(Object.entries(properties).map(([k, v]) => [k, withoutRequired(v)]));
  }
  if (items) out.items = withoutRequired(items);
  return out;
}

/** kube's `SetDefaults_Subject`: users and groups are of the RBAC group when none is given. */
function defaultSubject(subject: Subject, rbacGroup: string): Subject {
  if (subject.apiGroup || (subject.kind !== 'User' && subject.kind !== 'Group')) return subject;
  return { ...subject, apiGroup: rbacGroup };
}

/** kube's binding defaults: the role reference and user/group subjects get the RBAC group. */
export function defaultBinding(binding: RoleBinding, rbacGroup: string): void {
  const ref = binding.roleRef;
  if (ref && typeof ref === 'object' && ref.apiGroup === '') binding.roleRef = { ...ref, apiGroup: rbacGroup };
  if (Array.isArray(binding.subjects)) {
    binding.subjects = binding.subjects.map((s) =>
      s && typeof s === 'object' && (s.apiGroup === undefined || s.apiGroup === '') ? defaultSubject(s, rbacGroup) : s,
    );
  }
}

interface KindNames {
  readonly kind: string;
  readonly resource: string;
  readonly namespaced: boolean;
  readonly listDescription: string;
}

function rbacDefinition(
  names: KindNames,
  schema: Schema,
  rest: Pick<BuiltinResourceDefinition, 'strategy'> & Partial<BuiltinResourceDefinition>,
  domain: ApiDomain,
): BuiltinResourceDefinition {
  return {
    group: domain.group('rbac.authorization'),
    version: 'v1',
    kind: names.kind,
    listKind: `${names.kind}List`,
    resource: names.resource,
    singular: names.kind.toLowerCase(),
    namespaced: names.namespaced,
    shortNames: [],
    categories: [],
    verbs: STANDARD_VERBS,
    subresources: [],
    allowCreateOnUpdate: true,
    hasGeneration: false,
    schema,
    listDescription: names.listDescription,
    ...rest,
  };
}

/** `roles`: namespaced rule sets. */
export function roleResource(domain: ApiDomain = ORCH_DOMAIN): BuiltinResourceDefinition {
  const names = { kind: 'Role', resource: 'roles', namespaced: true, listDescription: 'A list of roles.' };
  return rbacDefinition(
    names,
    roleSchema,
    {
      strategy: schemaStrategy<Role>({
        schema: withoutRequired(roleSchema),
        namespaced: true,
        nameValidator: nameIsPathSegment,
        validateCreate: validateRole,
        validateUpdate: validateRole,
      }),
    },
    domain,
  );
}

/** `clusterroles`: cluster-wide rule sets, possibly aggregated by label selectors. */
export function clusterRoleResource(domain: ApiDomain = ORCH_DOMAIN): BuiltinResourceDefinition {
  const names = {
    kind: 'ClusterRole',
    resource: 'clusterroles',
    namespaced: false,
    listDescription: 'A list of cluster roles.',
  };
  return rbacDefinition(
    names,
    clusterRoleSchema,
    {
      strategy: schemaStrategy<ClusterRole>({
        schema: withoutRequired(clusterRoleSchema),
        namespaced: false,
        nameValidator: nameIsPathSegment,
        validateCreate: (role) => validateClusterRole(role),
        // Selector values that were already invalid stay allowed (kube's ratcheting).
        validateUpdate: (role, old) =>
          validateClusterRole(role, {
            allowInvalidLabelValueInSelector: hasInvalidLabelValue(old.aggregationRule?.clusterRoleSelectors ?? []),
          }),
      }),
    },
    domain,
  );
}

function bindingStrategy<T extends RoleBinding>(schema: Schema, namespaced: boolean, rbacGroup: string) {
  return schemaStrategy<T>({
    schema: withoutRequired(schema),
    namespaced,
    nameValidator: nameIsPathSegment,
    defaults: (b) => defaultBinding(b, rbacGroup),
    validateCreate: (b) => validateRoleBinding(b, namespaced, rbacGroup),
    validateUpdate: (b, old) => [...validateRoleBinding(b, namespaced, rbacGroup), ...validateRoleRefUnchanged(b, old)],
  });
}

/** `rolebindings`: grant a role or cluster role within one namespace. */
export function roleBindingResource(domain: ApiDomain = ORCH_DOMAIN): BuiltinResourceDefinition {
  const names = {
    kind: 'RoleBinding',
    resource: 'rolebindings',
    namespaced: true,
    listDescription: 'A list of role bindings.',
  };
  return rbacDefinition(
    names,
    roleBindingSchema,
    {
      strategy: bindingStrategy<RoleBinding>(roleBindingSchema, true, domain.group('rbac.authorization')),
      tableColumns: bindingTableColumns('role binding'),
    },
    domain,
  );
}

/** `clusterrolebindings`: grant a cluster role in every namespace. */
export function clusterRoleBindingResource(domain: ApiDomain = ORCH_DOMAIN): BuiltinResourceDefinition {
  const names = {
    kind: 'ClusterRoleBinding',
    resource: 'clusterrolebindings',
    namespaced: false,
    listDescription: 'A list of cluster role bindings.',
  };
  return rbacDefinition(
    names,
    clusterRoleBindingSchema,
    {
      strategy: bindingStrategy<ClusterRoleBinding>(
        clusterRoleBindingSchema,
        false,
        domain.group('rbac.authorization'),
      ),
      tableColumns: bindingTableColumns('cluster role binding'),
    },
    domain,
  );
}

/** All four, in kube's discovery order. */
export function rbacResources(domain: ApiDomain = ORCH_DOMAIN): BuiltinResourceDefinition[] {
  return [
    clusterRoleBindingResource(domain),
    clusterRoleResource(domain),
    roleBindingResource(domain),
    roleResource(domain),
  ];
}

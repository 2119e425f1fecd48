import type { AdmissionAttributes, AdmissionPlugin } from '../admission/index.js';
import type { ApiDomain } from '../apis/api-domain.js';
import { apiErrors } from '../apis/meta/status.js';
import type { ApiObject } from '../apis/object.js';
import type { ClusterRole, PolicyRule, RoleBinding } from '../apis/rbac/rbac-types.js';
import { type Attributes, resourceAttributes } from '../apis/request/authorization-attributes.js';
import { PRIVILEGED_GROUP, type UserInfo } from '../apis/request/user-info.js';
import type { ObjectReader } from '../authn/object-reader.js';
import type { Authorizer } from '../authz/authorizer.js';
import { escalationMessage, uncoveredRules } from '../authz/rbac/escalation.js';
import type { RbacAuthorizer } from '../authz/rbac/rbac-authorizer.js';
import { deepEqual } from '../util/deep-equal.js';

export interface RbacEscalationOptions {
  readonly domain: ApiDomain;
  /** The whole authorizer chain: asked about the `escalate` and `bind` verbs. */
  readonly authorizer: () => Authorizer;
  /** The RBAC rules a user holds (empty when RBAC is not an authorization mode). */
  readonly rbac: RbacAuthorizer | undefined;
  /** Reads the role a binding references. */
  readonly objects: ObjectReader;
}

const ROLE_RESOURCES = new Set(['roles', 'clusterroles']);
const BINDING_RESOURCES = new Set(['rolebindings', 'clusterrolebindings']);

/**
 * kube's IsOnlyMutatingGCFields: an update that changes nothing but owner references and
 * finalizers (what the garbage collector writes) needs no escalation check.
 */
function onlyGcFields(obj: ApiObject, old: ApiObject | undefined): boolean {
  if (!old) return false;
  const strip = (o: ApiObject) => {
    const {
      ownerReferences: _o,
      finalizers: _f,
      managedFields: _m,
      resourceVersion: _r,
      generation: _g,
      ...meta
    } = o.metadata ?? {};
    return { ...o, metadata: meta };
  };
  return deepEqual(strip(obj), strip(old));
}

/**
 * kube-apiserver's RBAC escalation prevention, on the admission seam so that every writer passes
 * it: a Role or ClusterRole may be created or changed only by a user who already holds all its
 * rules at that scope, or may `escalate` it (or is in `system:masters`); an aggregating ClusterRole
 * needs `escalate`; a binding only by a user who holds all rules of the referenced role in the
 * binding's scope, or may `bind` that role. Refusals are 403s listing what is missing, in kube's
 * words; a binding to a role that does not exist is its 404.
 */
export function rbacEscalationPlugin(o: RbacEscalationOptions): AdmissionPlugin {
  const group = o.domain.group('rbac.authorization');
  const allowed = async (a: Attributes, signal: AbortSignal) =>
    (await o.authorizer().authorize(a, { signal })).decision === 'allow';
  const heldRules = (user: UserInfo, namespace: string) => o.rbac?.policyRulesFor(user, namespace).rules ?? [];
  const forbidden = (a: AdmissionAttributes, message: string) =>
    apiErrors.forbidden({ group, resource: a.resource.resource }, a.name, message);

  return {
    name: 'RBACEscalationPrevention',
    handles: (op) => op === 'CREATE' || op === 'UPDATE',
    async validate(a, signal) {
      if (a.resource.group !== group || a.subresource !== '' || !a.object) return;
      const resource = a.resource.resource;
      if (!ROLE_RESOURCES.has(resource) && !BINDING_RESOURCES.has(resource)) return;
      if (a.user.groups.includes(PRIVILEGED_GROUP)) return;
      if (ROLE_RESOURCES.has(resource)) {
        const role = a.object as ClusterRole;
        if (onlyGcFields(role, a.oldObject)) return;
        const escalate = await allowed(
          resourceAttributes(a.user, 'escalate', { apiGroup: group, resource, namespace: a.namespace, name: a.name }),
          signal,
        );
        if (escalate) return;
        if (role.aggregationRule) throw forbidden(a, 'must have cluster-admin privileges to use the aggregationRule');
        const missing = uncoveredRules(heldRules(a.user, a.namespace), (role.rules ?? []) as PolicyRule[]);
        if (missing.length > 0) throw forbidden(a, escalationMessage(a.user, missing));
        return;
      }
      const binding = a.object as RoleBinding;
      if (onlyGcFields(binding, a.oldObject)) return;
      const ref = binding.roleRef;
      const roleResource = ref?.kind === 'Role' ? 'roles' : 'clusterroles';
      const bind = await allowed(
        resourceAttributes(a.user, 'bind', {
          apiGroup: group,
          resource: roleResource,
          namespace: a.namespace,
          name: ref?.name,
        }),
        signal,
      );
      if (bind) return;
      const role = (await o.objects.get(
        { group, version: 'v1', resource: roleResource },
        ref?.kind === 'Role' ? a.namespace : '',
        ref?.name ?? '',
        signal,
      )) as ApiObject | undefined;
      if (!role) throw apiErrors.notFound({ group, resource: roleResource }, ref?.name ?? '');
      const missing = uncoveredRules(
        heldRules(a.user, a.namespace),
        ((role as ClusterRole).rules ?? []) as PolicyRule[],
      );
      if (missing.length > 0) throw forbidden(a, escalationMessage(a.user, missing));
    },
  };
}

import type { ApiDomain } from '../apis/api-domain.js';
import { StatusError } from '../apis/meta/status.js';
import type { ApiObject } from '../apis/object.js';
import { autoupdateAnnotation, defaultPolicy } from '../apis/rbac/default-policy.js';
import type { ClusterRole, ClusterRoleBinding, Role, RoleBinding } from '../apis/rbac/rbac-types.js';
import { internalRequestContext } from '../apis/request/request-context.js';
import type { ResourceSet, ServedResource } from '../registry/resource-set/index.js';
import type { RequestContext } from '../registry/types.js';
import type { Logger } from '../util/logger.js';
import { API_SERVER_USER } from './bootstrap-namespaces.js';
import {
  mayAutoupdate,
  reconcileClusterRole,
  reconcileClusterRoleBinding,
  roleRefDiffers,
} from './rbac-bootstrap-reconcile.js';
import type { RbacResource, RbacWrite } from './rbac-index-feed.js';

/** Thrown when some default objects could not be written; names each with its error. */
export class RbacBootstrapError extends Error {}

/** What one pass did, for logs and tests. */
export interface RbacBootstrapResult {
  readonly created: string[];
  readonly updated: string[];
  /** Existing objects annotated `autoupdate: "false"`, left as they are. */
  readonly skipped: string[];
  /** Per resource written, the highest resourceVersion written (for the RBAC index to catch up to). */
  readonly writes: RbacWrite[];
}

interface Kind<T extends ApiObject> {
  readonly resource: RbacResource;
  readonly expected: T[];
  readonly reconcile: (existing: T, expected: T) => boolean;
  /** Whether the existing object must be replaced rather than updated. */
  readonly replace?: (existing: T, expected: T) => boolean;
}

/**
 * kube-apiserver's `rbac/bootstrap-roles` post-start hook: creates the default ClusterRoles and
 * ClusterRoleBindings, then the default Roles and RoleBindings of the system and public
 * namespaces (which exist by then), that are missing; for existing ones whose autoupdate
 * annotation is not false, adds missing rules, aggregation selectors, subjects, labels and
 * annotations, never removing what users added (a binding with another `roleRef` is recreated,
 * keeping its subjects). One list per kind; writes only for objects that differ, through the
 * registries as `system:apiserver` (admission included). Runs whatever the authorization mode.
 * Resources that are not served are skipped.
 *
 * @throws RbacBootstrapError naming every object that could not be written.
 */
export async function ensureDefaultRbacPolicy(
  resources: ResourceSet,
  domain: ApiDomain,
  o: { signal: AbortSignal; logger: Logger },
): Promise<RbacBootstrapResult> {
  const group = domain.group('rbac.authorization');
  const policy = defaultPolicy(domain);
  const annotation = autoupdateAnnotation(domain);
  const result: RbacBootstrapResult = { created: [], updated: [], skipped: [], writes: [] };
  const failures: string[] = [];
  const kinds: [Kind<ClusterRole>, Kind<ClusterRoleBinding>, Kind<Role>, Kind<RoleBinding>] = [
    { resource: 'clusterroles', expected: policy.clusterRoles, reconcile: reconcileClusterRole },
    {
      resource: 'clusterrolebindings',
      expected: policy.clusterRoleBindings,
      reconcile: reconcileClusterRoleBinding,
      replace: roleRefDiffers,
    },
    // A Role reconciles as a ClusterRole without aggregation, a RoleBinding as a ClusterRoleBinding.
    { resource: 'roles', expected: policy.roles, reconcile: reconcileClusterRole },
    {
      resource: 'rolebindings',
      expected: policy.roleBindings,
      reconcile: reconcileClusterRoleBinding,
      replace: roleRefDiffers,
    },
  ];
  const env: KindEnv = { resources, group, domain, annotation, signal: o.signal };
  // Roles before the bindings that reference them; the two scopes are independent.
  const [clusterRoles, clusterBindings, roles, roleBindings] = kinds as Kind<ApiObject>[];
  const done = new Map<Kind<ApiObject>, KindOutcome | undefined>();
  for (const phase of [
    [clusterRoles, roles],
    [clusterBindings, roleBindings],
  ]) {
    const outcomes = await Promise.all(phase.map((kind) => reconcileKind(kind, env)));
    for (let i = 0; i < phase.length; i++) done.set(phase[i], outcomes[i]);
  }
  // Reported in the policy's order, whatever order the writes finished in.
  for (const kind of kinds as Kind<ApiObject>[]) {
    const outcome = done.get(kind);
    if (!outcome) continue;
    let highest: bigint | undefined;
    for (const [what, label, written] of outcome) {
      if (what === 'failed') failures.push(label);
      else if (what !== 'same') result[what].push(label);
      const rv = written?.metadata.resourceVersion;
      if (rv && /^\d+$/.test(rv) && (highest === undefined || BigInt(rv) > highest)) highest = BigInt(rv);
    }
    if (highest !== undefined) result.writes.push({ resource: kind.resource, resourceVersion: highest.toString() });
  }
  if (failures.length > 0)
    throw new RbacBootstrapError(`could not reconcile default RBAC objects: ${failures.join('; ')}`);
  if (result.created.length + result.updated.length > 0) {
    o.logger.info('rbac/bootstrap-roles: reconciled the default policy', {
      created: result.created.length,
      updated: result.updated.length,
      skipped: result.skipped.length,
    });
  }
  return result;
}

type Outcome = 'created' | 'updated' | 'skipped' | 'same' | 'failed';

/** What one kind's pass did: per expected object, in the policy's order, with what was written. */
type KindOutcome = [Outcome, string, ApiObject | undefined][];

interface KindEnv {
  readonly resources: ResourceSet;
  readonly group: string;
  readonly domain: ApiDomain;
  readonly annotation: string;
  readonly signal: AbortSignal;
}

/** One list of the kind, then every expected object reconciled concurrently; undefined when not served. */
async function reconcileKind(kind: Kind<ApiObject>, env: KindEnv): Promise<KindOutcome | undefined> {
  const served = env.resources.lookup(env.group, 'v1', kind.resource);
  if (!served) return undefined;
  const ctx = (verb: string, namespace = '', name?: string) =>
    internalRequestContext({
      user: API_SERVER_USER,
      signal: env.signal,
      verb,
      group: env.group,
      version: 'v1',
      resource: kind.resource,
      namespace,
      name,
    });
  const keyOf = (obj: ApiObject) => `${obj.metadata.namespace ?? ''}/${obj.metadata.name ?? ''}`;
  const existing = new Map<string, ApiObject>();
  for (const item of (await served.store.list(ctx('list'), {})).items) existing.set(keyOf(item), item);
  const { domain, annotation } = env;
  return Promise.all(
    kind.expected.map(async (expected): Promise<KindOutcome[number]> => {
      const ns = expected.metadata.namespace;
      const label = `${kind.resource}/${ns ? `${ns}/` : ''}${expected.metadata.name ?? ''}`;
      try {
        const live = existing.get(keyOf(expected));
        const [outcome, written] = await reconcileOne(served, kind, { ctx, live, expected, domain, annotation });
        return [outcome, label, written];
      } catch (e) {
        return ['failed', `${label}: ${e instanceof Error ? e.message : String(e)}`, undefined];
      }
    }),
  );
}

interface ReconcileInput {
  readonly ctx: (verb: string, namespace?: string, name?: string) => RequestContext;
  readonly live: ApiObject | undefined;
  readonly expected: ApiObject;
  readonly domain: ApiDomain;
  readonly annotation: string;
}

/** Creates, updates, replaces or leaves one default object; says which, and what it wrote. */
async function reconcileOne(
  served: ServedResource,
  kind: Kind<ApiObject>,
  { ctx, live, expected, domain, annotation }: ReconcileInput,
): Promise<[Exclude<Outcome, 'failed'>, ApiObject | undefined]> {
  const name = expected.metadata.name ?? '';
  const ns = expected.metadata.namespace ?? '';
  if (!live) return ['created', await create(served, ctx('create', ns, name), expected, domain)];
  if (!mayAutoupdate(live, annotation)) return ['skipped', undefined];
  if (kind.replace?.(live, expected)) {
    const next = structuredClone(expected);
    kind.reconcile(next, { ...live, metadata: { ...live.metadata, name } });
    await served.store.delete(ctx('delete', ns, name), name, {
      dryRun: false,
      preconditions: { uid: live.metadata.uid },
    });
    return ['updated', await create(served, ctx('create', ns, name), next, domain)];
  }
  if (!kind.reconcile(structuredClone(live), expected)) return ['same', undefined];
  const r = await served.store.update(
    ctx('update', ns, name),
    name,
    {
      retryOnConflict: true,
      compute(current) {
        if (!current) throw new RbacBootstrapError(`${kind.resource}/${name} was deleted meanwhile`);
        const next = structuredClone(current);
        return kind.reconcile(next, expected) ? next : current;
      },
    },
    { dryRun: false, fieldManager: domain.apiServerManager },
  );
  return ['updated', r.obj];
}

/** Creates `obj`; undefined when it was created meanwhile (by another server of the same store). */
async function create(
  served: ServedResource,
  ctx: RequestContext,
  obj: ApiObject,
  domain: ApiDomain,
): Promise<ApiObject | undefined> {
  try {
    return await served.store.create(ctx, obj, { dryRun: false, fieldManager: domain.apiServerManager });
  } catch (e) {
    // The next start reconciles it.
    if (!(e instanceof StatusError && e.reason === 'AlreadyExists')) throw e;
    return undefined;
  }
}

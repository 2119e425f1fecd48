import type { ApiDomain } from '../apis/api-domain.js';
import { StatusError } from '../apis/meta/status.js';
import type { ApiObject } from '../apis/object.js';
import { internalRequestContext } from '../apis/request/request-context.js';
import { controllerUser, type UserInfo } from '../apis/request/user-info.js';
import type { ServedResource } from '../registry/resource-set/index.js';
import type { DeleteOptions, RequestContext } from '../registry/types.js';

/** An object, named as controllers name it. */
export interface ObjectRef {
  readonly served: ServedResource;
  readonly namespace: string;
  readonly name: string;
  /** When set, an object of that name with another uid counts as gone. */
  readonly uid?: string;
}

/**
 * Who a controller is: the user its requests carry (admission and, later, authorization see it)
 * and the field manager its writes are recorded under in `metadata.managedFields`.
 */
export interface ControllerIdentity {
  readonly user: UserInfo;
  readonly manager: string;
}

/**
 * The identity of a named in-process controller: the service account
 * `system:serviceaccount:<system namespace>:<name>` (kube-controller-manager's controllers with
 * `--use-service-account-credentials`), writing as field manager `<name>`.
 */
export function controllerIdentity(name: string, domain: ApiDomain): ControllerIdentity {
  return { user: controllerUser(name, domain.systemNamespace), manager: name };
}

/** The request context of a controller's request on one served resource. */
export function controllerContext(
  who: ControllerIdentity,
  served: ServedResource,
  r: { verb: string; namespace: string; name?: string; subresource?: string; signal: AbortSignal },
): RequestContext {
  const d = served.def;
  return internalRequestContext({
    user: who.user,
    signal: r.signal,
    verb: r.verb,
    group: d.group,
    version: d.version,
    resource: d.resource,
    namespace: d.namespaced ? r.namespace : '',
    name: r.name,
    subresource: r.subresource,
  });
}

function ctxOf(
  who: ControllerIdentity,
  ref: ObjectRef,
  verb: string,
  signal: AbortSignal,
  subresource?: string,
): RequestContext {
  return controllerContext(who, ref.served, { verb, namespace: ref.namespace, name: ref.name, subresource, signal });
}

function isCode(e: unknown, code: number): boolean {
  return e instanceof StatusError && e.code === code;
}

/** Thrown inside an update's compute when the object is not the one meant. */
class ObjectReplaced extends Error {}

/** A live read through the registry; undefined when absent (or replaced by another uid). */
export async function getLive(
  who: ControllerIdentity,
  ref: ObjectRef,
  signal: AbortSignal,
): Promise<ApiObject | undefined> {
  try {
    const obj = await ref.served.store.get(ctxOf(who, ref, 'get', signal), ref.name, {});
    if (ref.uid !== undefined && obj.metadata.uid !== ref.uid) return undefined;
    return obj;
  } catch (e) {
    if (isCode(e, 404)) return undefined;
    throw e;
  }
}

/**
 * Read-modify-write through the registry (re-run against the freshest object on conflict).
 * `mutate` edits a copy and says whether it changed anything; nothing is written otherwise.
 * Returns the object written (or read), or undefined when the object is gone.
 */
export async function updateLive(
  who: ControllerIdentity,
  ref: ObjectRef,
  mutate: (obj: ApiObject) => boolean,
  opts: { signal: AbortSignal; subresource?: string },
): Promise<ApiObject | undefined> {
  try {
    const r = await ref.served.store.update(
      ctxOf(who, ref, 'update', opts.signal, opts.subresource),
      ref.name,
      {
        retryOnConflict: true,
        compute(live) {
          if (!live || (ref.uid !== undefined && live.metadata.uid !== ref.uid)) throw new ObjectReplaced();
          const next = structuredClone(live);
          return mutate(next) ? next : live;
        },
      },
      { dryRun: false, subresource: opts.subresource, fieldManager: who.manager },
    );
    return r.obj;
  } catch (e) {
    if (e instanceof ObjectReplaced || isCode(e, 404)) return undefined;
    throw e;
  }
}

/**
 * Deletes through the registry, guarded by the object's uid when known. Returns false when the
 * object was already gone (or replaced), true otherwise (deleted or marked for deletion).
 */
export async function deleteLive(
  who: ControllerIdentity,
  ref: ObjectRef,
  options: Omit<DeleteOptions, 'dryRun'>,
  signal: AbortSignal,
): Promise<boolean> {
  const preconditions = ref.uid !== undefined ? { uid: ref.uid } : undefined;
  try {
    await ref.served.store.delete(ctxOf(who, ref, 'delete', signal), ref.name, {
      dryRun: false,
      preconditions,
      ...options,
    });
    return true;
  } catch (e) {
    // 409: the uid precondition failed, so the object we meant is gone.
    if (isCode(e, 404) || isCode(e, 409)) return false;
    throw e;
  }
}

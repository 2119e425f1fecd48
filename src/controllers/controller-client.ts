import type { ApiDomain } from '../apis/api-domain.js';
import type { ApiObject } from '../apis/object.js';
import { internalRequestContext } from '../apis/request/request-context.js';
import { AUTHENTICATED_GROUP, controllerUser, type UserInfo } from '../apis/request/user-info.js';
import { ApplyConflictError, FieldManagerError } from '../apply/index.js';
import { type Authorizer, attributesOf, forbiddenError } from '../authz/index.js';
import type { ServedResource } from '../registry/resource-set/index.js';
import type {
  DeleteOptions,
  GetOptions,
  ListOptions,
  ObjectList,
  RequestContext,
  UpdatedObject,
  WatchOptions,
  WatchStream,
} from '../registry/types.js';

/**
 * Who a controller is: the user its requests carry (authorization and admission see it) and
 * the field manager its writes are recorded under in `metadata.managedFields`.
 */
export interface ControllerIdentity {
  readonly user: UserInfo;
  readonly manager: string;
}

/**
 * The identity of a named in-process controller: the service account
 * `system:serviceaccount:<system namespace>:<name>` (kube-controller-manager's controllers with
 * `--use-service-account-credentials`), writing as field manager `<name>`. The user is frozen,
 * so that authorizers may cache what they derive from it.
 */
export function controllerIdentity(name: string, domain: ApiDomain): ControllerIdentity {
  return { user: frozenUser(controllerUser(name, domain.systemNamespace)), manager: name };
}

/** The shared informers' identity (kube-controller-manager's own user and field manager). */
export function informerIdentity(domain: ApiDomain): ControllerIdentity {
  return {
    user: frozenUser({ name: domain.controllerManagerUser, groups: [AUTHENTICATED_GROUP] }),
    manager: domain.controllerManagerName,
  };
}

/** A user object that never changes (its groups included). */
export function frozenUser(user: UserInfo): UserInfo {
  return Object.freeze({ ...user, groups: Object.freeze([...user.groups]) });
}

/** What one request addresses, besides the resource. */
export interface ControllerRequest {
  readonly verb: string;
  /** Ignored for cluster-scoped resources; empty for all namespaces. */
  readonly namespace: string;
  readonly name?: string;
  readonly subresource?: string;
  readonly signal: AbortSignal;
}

/** Addresses one object. */
export interface ObjectTarget {
  readonly namespace: string;
  readonly name: string;
  readonly subresource?: string;
}

function at(verb: string, t: ObjectTarget, signal: AbortSignal): ControllerRequest {
  return { verb, namespace: t.namespace, name: t.name, subresource: t.subresource, signal };
}

/**
 * An in-process controller's client of the registries, the only way controllers read and write.
 * Every request carries the controller's identity and passes the server's authorizer first,
 * with the attributes the HTTP authorization filter would build for the same request: a refusal
 * is the same 403 `StatusError` an HTTP client gets (`… is forbidden: User "…" cannot …`), which
 * the controller logs and retries like any other error. Writes record the controller's field
 * manager; admission runs as for everyone.
 */
export class ControllerClient {
  private readonly decide: Authorizer['decide'];

  constructor(
    readonly identity: ControllerIdentity,
    private readonly authorizer: Authorizer,
  ) {
    this.decide = authorizer.decide?.bind(authorizer);
  }

  /**
   * The request context of a request, once the authorizer allowed it.
   * @throws StatusError 403 when it did not.
   */
  async context(served: ServedResource, r: ControllerRequest): Promise<RequestContext> {
    const d = served.def;
    const ctx = internalRequestContext({
      user: this.identity.user,
      signal: r.signal,
      verb: r.verb,
      group: d.group,
      version: d.version,
      resource: d.resource,
      namespace: d.namespaced ? r.namespace : '',
      name: r.name,
      subresource: r.subresource,
    });
    // Controllers send no selectors: nothing to parse.
    const a = attributesOf(ctx.info, ctx.user, { withSelectors: false });
    // Authorizers that never wait decide synchronously, as in the HTTP filter.
    const result = this.decide ? this.decide(a) : await this.authorizer.authorize(a, ctx);
    if (result.decision !== 'allow') throw forbiddenError(a, result.reason);
    return ctx;
  }

  async get(served: ServedResource, t: ObjectTarget, signal: AbortSignal, o: GetOptions = {}): Promise<ApiObject> {
    const ctx = await this.context(served, at('get', t, signal));
    return served.store.get(ctx, t.name, o);
  }

  async list(served: ServedResource, namespace: string, o: ListOptions, signal: AbortSignal): Promise<ObjectList> {
    const ctx = await this.context(served, { verb: 'list', namespace, signal });
    return served.store.list(ctx, o);
  }

  async watch(served: ServedResource, namespace: string, o: WatchOptions, signal: AbortSignal): Promise<WatchStream> {
    const ctx = await this.context(served, { verb: 'watch', namespace, signal });
    return served.store.watch(ctx, o);
  }

  async create(served: ServedResource, namespace: string, obj: ApiObject, signal: AbortSignal): Promise<ApiObject> {
    const ctx = await this.context(served, { verb: 'create', namespace, signal });
    return served.store.create(ctx, obj, { dryRun: false, fieldManager: this.identity.manager });
  }

  /** An update (`compute` re-runs against the freshest object on conflict when it allows). */
  async update(served: ServedResource, t: ObjectTarget, next: UpdatedObject, signal: AbortSignal): Promise<ApiObject> {
    const ctx = await this.context(served, at('update', t, signal));
    const r = await served.store.update(ctx, t.name, next, {
      dryRun: false,
      subresource: t.subresource,
      fieldManager: this.identity.manager,
    });
    return r.obj;
  }

  /**
   * A server-side apply of `config` (verb `patch`) as the controller's field manager, merged
   * against the freshest object on every retry. `expect` sees the live object first and may
   * throw to stop (an object that is gone or was replaced): a controller never creates what it
   * applies to. Conflicts with other managers are 409s unless `force`.
   */
  async apply(
    served: ServedResource,
    t: ObjectTarget,
    config: ApiObject,
    o: {
      readonly force: boolean;
      readonly signal: AbortSignal;
      readonly expect: (live: ApiObject | undefined) => void;
      /** Create the object when it is missing (as an HTTP apply does). Default false. */
      readonly createIfMissing?: boolean;
    },
  ): Promise<ApiObject> {
    const ctx = await this.context(served, at('patch', t, o.signal));
    const fm = served.fields.fieldManager;
    const writeOptions = served.fields.writeOptions(t.subresource);
    const manager = this.identity.manager;
    const r = await served.store.update(
      ctx,
      t.name,
      {
        retryOnConflict: true,
        compute(live) {
          o.expect(live);
          try {
            return fm.apply(live, config, manager, o.force, writeOptions);
          } catch (e) {
            if (e instanceof ApplyConflictError || e instanceof FieldManagerError) throw e.toStatusError();
            throw e;
          }
        },
      },
      { dryRun: false, subresource: t.subresource, createIfMissing: o.createIfMissing && !t.subresource },
    );
    return r.obj;
  }

  async delete(
    served: ServedResource,
    t: ObjectTarget,
    o: Omit<DeleteOptions, 'dryRun'>,
    signal: AbortSignal,
  ): Promise<ApiObject> {
    const ctx = await this.context(served, at('delete', t, signal));
    return (await served.store.delete(ctx, t.name, { dryRun: false, ...o })).obj;
  }

  async deleteCollection(
    served: ServedResource,
    namespace: string,
    o: Omit<DeleteOptions, 'dryRun'>,
    signal: AbortSignal,
    selectors: Pick<ListOptions, 'labelSelector' | 'fieldSelector'> = {},
  ): Promise<ObjectList> {
    const ctx = await this.context(served, { verb: 'deletecollection', namespace, signal });
    return served.store.deleteCollection(ctx, { dryRun: false, ...o }, selectors);
  }

  /** A create through a computing sub-resource (`serviceaccounts/<name>/token`, `pods/<name>/eviction`). */
  async createSubresource(
    served: ServedResource,
    t: ObjectTarget & { readonly subresource: string },
    body: ApiObject,
    signal: AbortSignal,
  ): Promise<ApiObject> {
    const ctx = await this.context(served, at('create', t, signal));
    return served.store.createSubresource(ctx, t.name, t.subresource, body, {
      dryRun: false,
      fieldManager: this.identity.manager,
    });
  }
}

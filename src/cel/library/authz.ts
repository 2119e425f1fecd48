import { nameIsDNSLabel, nameIsDNSSubdomain } from '../../apis/meta/name-validation.js';
import {
  type Attributes,
  type AuthorizationResult,
  NO_SELECTORS,
} from '../../apis/request/authorization-attributes.js';
import { requestSelectorAttributes } from '../../apis/request/selector-attributes.js';
import type { UserInfo } from '../../apis/request/user-info.js';
import type { CelLibrary } from '../cel-library.js';
import { celError, registerFunctions } from './cel-values.js';

/** The type of the `authorizer` variable. */
export const AUTHORIZER_TYPE = 'kubernetes.authorization.Authorizer';
const AUTHORIZER = AUTHORIZER_TYPE;
const PATH_CHECK = 'kubernetes.authorization.PathCheck';
const GROUP_CHECK = 'kubernetes.authorization.GroupCheck';
const RESOURCE_CHECK = 'kubernetes.authorization.ResourceCheck';
const DECISION = 'kubernetes.authorization.Decision';

/** What a check asks: the authorization layer's attributes (selectors set only with `AuthorizeWithSelectors`). */
export type CelAuthorizationAttributes = Attributes;

/** An authorizer's answer; `error` is what `errored()` and `error()` report (kube's `err`). */
export interface CelAuthorizationDecision extends AuthorizationResult {
  readonly error?: string;
}

/**
 * A synchronous authorization decision, since CEL evaluates synchronously. The server's
 * `Authorizer.authorize` is asynchronous; it is adapted by record and replay: evaluate once with
 * a function that answers from a per-evaluation cache and records every attribute set it has no
 * answer for (answering, say, no-opinion); if any were recorded, await the authorizer for them,
 * add the answers to the cache and evaluate again (CEL is pure, so the second run asks the same
 * questions, now answered), until nothing new is asked.
 */
export type CelAuthorize = (attributes: CelAuthorizationAttributes) => CelAuthorizationDecision;

/** The request's own resource, for `authorizer.requestResource`. */
export interface CelRequestResource {
  readonly group: string;
  readonly resource: string;
  readonly subresource?: string;
  readonly namespace?: string;
  readonly name?: string;
}

class AuthorizerValue {
  requestResource?: ResourceCheckValue;
  constructor(
    readonly user: UserInfo,
    readonly authorize: CelAuthorize,
  ) {}
}

class PathCheckValue {
  constructor(
    readonly authorizer: AuthorizerValue,
    readonly path: string,
  ) {}
}

class GroupCheckValue {
  constructor(
    readonly authorizer: AuthorizerValue,
    readonly group: string,
  ) {}
}

interface ResourceCheckFields {
  readonly resource: string;
  readonly subresource: string;
  readonly namespace: string;
  readonly name: string;
  readonly fieldSelector: string;
  readonly labelSelector: string;
}

class ResourceCheckValue {
  constructor(
    readonly groupCheck: GroupCheckValue,
    readonly fields: ResourceCheckFields,
  ) {}

  with(change: Partial<ResourceCheckFields>): ResourceCheckValue {
    return new ResourceCheckValue(this.groupCheck, { ...this.fields, ...change });
  }
}

class DecisionValue {
  constructor(readonly result: CelAuthorizationDecision) {}
}

/**
 * The value of the `authorizer` variable for one evaluation: checks run as `user` (kube's
 * `NewAuthorizerVal`). With `requestResource`, `authorizer.requestResource` is a resource check
 * of the request's own resource (kube's `NewResourceAuthorizerVal`).
 */
export function authorizerValue(
  user: UserInfo,
  authorize: CelAuthorize,
  requestResource?: CelRequestResource,
): AuthorizerValue {
  const value = new AuthorizerValue(user, authorize);
  if (requestResource !== undefined) {
    value.requestResource = new ResourceCheckValue(new GroupCheckValue(value, requestResource.group), {
      resource: requestResource.resource,
      subresource: requestResource.subresource ?? '',
      namespace: requestResource.namespace ?? '',
      name: requestResource.name ?? '',
      fieldSelector: '',
      labelSelector: '',
    });
  }
  return value;
}

/** Go's `strings.TrimSpace(s) == ""`. */
const isBlank = (s: string): boolean => /^[\t\n\v\f\r \u0085\u00a0\p{Z}]*$/u.test(s);

const NO_RESOURCE = { resource: '', subresource: '', namespace: '', name: '', ...NO_SELECTORS };

function serviceAccount(a: AuthorizerValue, namespace: string, name: string): AuthorizerValue {
  if (nameIsDNSSubdomain(name, false).length > 0) throw celError('Invalid service account name');
  if (nameIsDNSLabel(namespace, false).length > 0) throw celError('Invalid service account namespace');
  const user: UserInfo = {
    name: `system:serviceaccount:${namespace}:${name}`,
    groups: ['system:serviceaccounts', `system:serviceaccounts:${namespace}`],
  };
  return new AuthorizerValue(user, a.authorize);
}

function checkPath(p: PathCheckValue, verb: string): DecisionValue {
  const a = p.authorizer;
  return new DecisionValue(
    a.authorize({
      ...NO_RESOURCE,
      user: a.user,
      verb,
      isResourceRequest: false,
      path: p.path,
      apiGroup: '',
      apiVersion: '',
    }),
  );
}

function checkResource(r: ResourceCheckValue, verb: string, withSelectors: boolean): DecisionValue {
  const a = r.groupCheck.authorizer;
  // kube parses a check's selectors as it parses a request's.
  const selectors = withSelectors
    ? requestSelectorAttributes(r.fields.fieldSelector, r.fields.labelSelector)
    : NO_SELECTORS;
  return new DecisionValue(
    a.authorize({
      ...r.fields,
      ...selectors,
      user: a.user,
      verb,
      isResourceRequest: true,
      path: '',
      apiGroup: r.groupCheck.group,
      apiVersion: '*',
    }),
  );
}

/** Options of the authorizer library. */
export interface AuthzLibraryOptions {
  /**
   * The `AuthorizeWithSelectors` gate (alpha in v1.31, beta and default on in v1.32): adds
   * `fieldSelector` and `labelSelector` to resource checks (kube's `kubernetes.authzSelectors`).
   */
  readonly authorizeWithSelectors?: boolean;
}

/**
 * kube's `kubernetes.authz` library (authz.go, v1.32), on an `authorizer` variable the
 * environment declares with type `kubernetes.authorization.Authorizer` and binds per evaluation
 * to {@link authorizerValue}: `authorizer.path(<path>).check(<http verb>)`,
 * `authorizer.group(<group>).resource(<resource>)` then `.subresource`, `.namespace`, `.name`
 * (and, behind the gate, `.fieldSelector`, `.labelSelector`) and `.check(<verb>)`,
 * `authorizer.serviceAccount(<namespace>, <name>)`, and on a decision `allowed()`, `reason()`,
 * `errored()`, `error()`. Errors: `path must not be empty`, `resource must not be empty`,
 * `Invalid service account name`, `Invalid service account namespace`.
 */
export function authzLibrary(options: AuthzLibraryOptions = {}): CelLibrary {
  const withSelectors = options.authorizeWithSelectors === true;
  return {
    name: 'kubernetes.authz',
    register(env) {
      for (const [name, ctor] of [
        [DECISION, DecisionValue],
        [PATH_CHECK, PathCheckValue],
        [GROUP_CHECK, GroupCheckValue],
        [RESOURCE_CHECK, ResourceCheckValue],
      ] as const) {
        env.registerType(name, { ctor, fields: {} });
      }
      env.registerType(AUTHORIZER, { ctor: AuthorizerValue, fields: { requestResource: RESOURCE_CHECK } });
      registerFunctions(env, [
        [
          `${AUTHORIZER}.path(string): ${PATH_CHECK}`,
          (a: AuthorizerValue, path: string) => {
            if (isBlank(path)) throw celError('path must not be empty');
            return new PathCheckValue(a, path);
          },
        ],
        [`${AUTHORIZER}.group(string): ${GROUP_CHECK}`, (a: AuthorizerValue, g: string) => new GroupCheckValue(a, g)],
        [`${AUTHORIZER}.serviceAccount(string, string): ${AUTHORIZER}`, serviceAccount],
        [
          `${GROUP_CHECK}.resource(string): ${RESOURCE_CHECK}`,
          (g: GroupCheckValue, resource: string) => {
            if (isBlank(resource)) throw celError('resource must not be empty');
            return new ResourceCheckValue(g, { ...NO_RESOURCE, resource });
          },
        ],
        [
          `${RESOURCE_CHECK}.subresource(string): ${RESOURCE_CHECK}`,
          (r: ResourceCheckValue, s: string) => r.with({ subresource: s }),
        ],
        [
          `${RESOURCE_CHECK}.namespace(string): ${RESOURCE_CHECK}`,
          (r: ResourceCheckValue, s: string) => r.with({ namespace: s }),
        ],
        [
          `${RESOURCE_CHECK}.name(string): ${RESOURCE_CHECK}`,
          (r: ResourceCheckValue, s: string) => r.with({ name: s }),
        ],
        [`${PATH_CHECK}.check(string): ${DECISION}`, checkPath],
        [
          `${RESOURCE_CHECK}.check(string): ${DECISION}`,
          (r: ResourceCheckValue, verb: string) => checkResource(r, verb, withSelectors),
        ],
        [`${DECISION}.allowed(): bool`, (d: DecisionValue) => d.result.decision === 'allow'],
        [`${DECISION}.reason(): string`, (d: DecisionValue) => d.result.reason],
        [`${DECISION}.errored(): bool`, (d: DecisionValue) => (d.result.error ?? '') !== ''],
        [`${DECISION}.error(): string`, (d: DecisionValue) => d.result.error ?? ''],
      ]);
      if (withSelectors) {
        registerFunctions(env, [
          [
            `${RESOURCE_CHECK}.fieldSelector(string): ${RESOURCE_CHECK}`,
            (r: ResourceCheckValue, s: string) => r.with({ fieldSelector: s }),
          ],
          [
            `${RESOURCE_CHECK}.labelSelector(string): ${RESOURCE_CHECK}`,
            (r: ResourceCheckValue, s: string) => r.with({ labelSelector: s }),
          ],
        ]);
      }
    },
  };
}

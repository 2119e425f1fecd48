import type { ApiDomain } from '../apis/api-domain.js';
import { accessReviewResources } from '../apis/authorization/review-resources.js';
import {
  reviewSelectorAttributes,
  selectorEvaluationError,
  validateReviewSelectors,
} from '../apis/authorization/review-selectors.js';
import type { BuiltinResourceDefinition } from '../apis/meta/builtin-definition.js';
import { type FieldError, fieldErrors } from '../apis/meta/field-error.js';
import { apiErrors } from '../apis/meta/status.js';
import type { ApiObject } from '../apis/object.js';
import { type Attributes, NO_SELECTORS } from '../apis/request/authorization-attributes.js';
import type { UserInfo } from '../apis/request/user-info.js';
import { isPlainObject } from '../apis/schema/json-value.js';
import type { Authorizer } from '../authz/authorizer.js';

type Json = Record<string, unknown>;

const obj = (v: unknown): Json | undefined => (isPlainObject(v) ? v : undefined);
const str = (v: unknown): string => (typeof v === 'string' ? v : '');
const strings = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : []);

/** A metadata object with nothing in it but (where allowed) the namespace and managed fields. */
function metadataIsEmpty(body: ApiObject, except: readonly string[] = []): boolean {
  const meta = obj(body.metadata) ?? {};
  return Object.entries(meta).every(([k, v]) => v === undefined || k === 'managedFields' || except.includes(k));
}

/**
 * The access attributes of a review's spec (resource or non-resource), for `user`. An empty
 * version asks about every version (kube's `*`); the selectors count only with
 * `AuthorizeWithSelectors`.
 */
function attributesOfSpec(spec: Json, user: UserInfo, withSelectors: boolean): Attributes {
  const ra = obj(spec.resourceAttributes);
  if (ra) {
    return {
      user,
      verb: str(ra.verb),
      isResourceRequest: true,
      path: '',
      namespace: str(ra.namespace),
      apiGroup: str(ra.group),
      apiVersion: str(ra.version) || '*',
      resource: str(ra.resource),
      subresource: str(ra.subresource),
      name: str(ra.name),
      ...(withSelectors ? reviewSelectorAttributes(ra) : NO_SELECTORS),
    };
  }
  const nra = obj(spec.nonResourceAttributes) ?? {};
  return {
    user,
    verb: str(nra.verb),
    isResourceRequest: false,
    path: str(nra.path),
    namespace: '',
    apiGroup: '',
    apiVersion: '',
    resource: '',
    subresource: '',
    name: '',
    ...NO_SELECTORS,
  };
}

/**
 * kube-apiserver's checks shared by every access review: exactly one kind of attributes, and
 * well-formed selectors in the resource attributes.
 */
function validateAttributes(spec: Json): FieldError[] {
  const errs: FieldError[] = [];
  if (spec.resourceAttributes != null && spec.nonResourceAttributes != null) {
    errs.push(
      fieldErrors.invalid(
        'spec.nonResourceAttributes',
        spec.nonResourceAttributes,
        'cannot be specified in combination with resourceAttributes',
      ),
    );
  }
  if (spec.resourceAttributes == null && spec.nonResourceAttributes == null) {
    errs.push(
      fieldErrors.invalid(
        'spec.resourceAttributes',
        spec.nonResourceAttributes,
        'exactly one of nonResourceAttributes or resourceAttributes must be specified',
      ),
    );
  }
  const ra = obj(spec.resourceAttributes);
  if (ra) errs.push(...validateReviewSelectors(ra, 'spec.resourceAttributes'));
  return errs;
}

/** A SubjectAccessReview's spec: one kind of attributes, and a user or a group to ask about. */
function validateSubjectSpec(spec: Json): FieldError[] {
  const errs = validateAttributes(spec);
  if (!str(spec.user) && strings(spec.groups).length === 0) {
    errs.push(fieldErrors.invalid('spec.user', str(spec.user), 'at least one of user or group must be specified'));
  }
  return errs;
}

function userOfSpec(spec: Json): UserInfo {
  const extra = obj(spec.extra);
  return {
    name: str(spec.user),
    uid: str(spec.uid) || undefined,
    groups: strings(spec.groups),
    extra: extra ? Object.fromEntries(Object.entries(extra).map(([k, v]) => [k, strings(v)])) : undefined,
  };
}

/**
 * The status kube-apiserver writes for a decision: `allowed` always, `denied` only when true,
 * and `evaluationError` when the authorizer met an error or a selector of the review could not be read.
 */
async function decide(authorizer: Authorizer, a: Attributes, signal: AbortSignal): Promise<Json> {
  const r = await authorizer.authorize(a, { signal });
  const status: Json = { allowed: r.decision === 'allow' };
  if (r.decision === 'deny') status.denied = true;
  if (r.reason) status.reason = r.reason;
  // kube's BuildEvaluationError: the authorizer's error, then the selectors that could not be read.
  const evaluationError = [r.evaluationError ?? '', selectorEvaluationError(a)].filter((e) => e !== '').join('; ');
  if (evaluationError) status.evaluationError = evaluationError;
  return status;
}

/** What the review APIs ask, read per request. */
export interface AccessReviewServices {
  /** The server's authorizer chain. */
  readonly authorizer: Authorizer;
  /** The `AuthorizeWithSelectors` gate: reviews pass their selectors to the authorizer. */
  readonly authorizeWithSelectors: boolean;
}

/**
 * The access-review APIs of the authorization group, answered by the server's authorizer chain
 * (read per request): `subjectaccessreviews` (any user, from the spec), `localsubjectaccessreviews`
 * (the same within the review's namespace), `selfsubjectaccessreviews` (the requester) and
 * `selfsubjectrulesreviews` (what the requester may do in a namespace). Validation and messages
 * are kube-apiserver's.
 */
export function authorizationReviewResources(
  domain: ApiDomain,
  services: () => AccessReviewServices,
): BuiltinResourceDefinition[] {
  const group = domain.group('authorization');
  const invalid = (kind: string, errs: FieldError[]) => apiErrors.invalid({ group, kind }, '', errs);
  const specOf = (body: ApiObject): Json => obj(body.spec) ?? {};
  return accessReviewResources(domain, {
    subjectAccessReviews: {
      async create(ctx, body) {
        const spec = specOf(body);
        const errs = validateSubjectSpec(spec);
        if (!metadataIsEmpty(body)) errs.push(fieldErrors.invalid('metadata', body.metadata, 'must be empty'));
        if (errs.length > 0) throw invalid('SubjectAccessReview', errs);
        const { authorizer, authorizeWithSelectors } = services();
        const a = attributesOfSpec(spec, userOfSpec(spec), authorizeWithSelectors);
        const status = await decide(authorizer, a, ctx.signal);
        return { ...body, status } as ApiObject;
      },
    },
    localSubjectAccessReviews: {
      async create(ctx, body) {
        const spec = specOf(body);
        const errs = validateSubjectSpec(spec);
        if (spec.nonResourceAttributes != null) {
          errs.push(
            fieldErrors.invalid(
              'spec.nonResourceAttributes',
              spec.nonResourceAttributes,
              'disallowed on this kind of request',
            ),
          );
        }
        if (!metadataIsEmpty(body, ['namespace'])) {
          errs.push(fieldErrors.invalid('metadata', body.metadata, 'must be empty except for namespace'));
        }
        if (errs.length > 0) throw invalid('LocalSubjectAccessReview', errs);
        const namespace = ctx.namespace;
        if (!namespace) throw apiErrors.badRequest(`namespace is required on this type: ${namespace}`);
        if (str(obj(spec.resourceAttributes)?.namespace) !== namespace) {
          throw apiErrors.badRequest(`spec.resourceAttributes.namespace must match namespace: ${namespace}`);
        }
        const { authorizer, authorizeWithSelectors } = services();
        const a = attributesOfSpec(spec, userOfSpec(spec), authorizeWithSelectors);
        const status = await decide(authorizer, a, ctx.signal);
        return { ...body, status } as ApiObject;
      },
    },
    selfSubjectAccessReviews: {
      async create(ctx, body) {
        const spec = specOf(body);
        const errs = validateAttributes(spec);
        if (!metadataIsEmpty(body)) errs.push(fieldErrors.invalid('metadata', body.metadata, 'must be empty'));
        if (errs.length > 0) throw invalid('SelfSubjectAccessReview', errs);
        const { authorizer, authorizeWithSelectors } = services();
        const status = await decide(authorizer, attributesOfSpec(spec, ctx.user, authorizeWithSelectors), ctx.signal);
        return { ...body, status } as ApiObject;
      },
    },
    selfSubjectRulesReviews: {
      async create(ctx, body) {
        const namespace = str(specOf(body).namespace);
        if (!namespace) throw apiErrors.badRequest('no namespace on request');
        const authz = services().authorizer;
        const rules = authz.rulesFor
          ? await authz.rulesFor(ctx.user, namespace, { signal: ctx.signal })
          : { resourceRules: [], nonResourceRules: [], incomplete: true, errors: [] };
        const status: Json = {
          resourceRules: rules.resourceRules.map((r) => {
            const out: Json = { verbs: [...r.verbs] };
            if (r.apiGroups.length > 0) out.apiGroups = [...r.apiGroups];
            if (r.resources.length > 0) out.resources = [...r.resources];
            if (r.resourceNames.length > 0) out.resourceNames = [...r.resourceNames];
            return out;
          }),
          nonResourceRules: rules.nonResourceRules.map((r) => ({
            verbs: [...r.verbs],
            nonResourceURLs: [...r.nonResourceURLs],
          })),
          incomplete: rules.incomplete,
        };
        if (rules.errors.length > 0) status.evaluationError = rules.errors.join(', ');
        // kube-apiserver answers with a fresh object: the spec is not echoed.
        return { apiVersion: body.apiVersion, kind: body.kind, metadata: {}, spec: {}, status } as ApiObject;
      },
    },
  });
}

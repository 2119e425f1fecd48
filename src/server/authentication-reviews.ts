import type { ApiDomain } from '../apis/api-domain.js';
import { selfSubjectReviewResource, tokenReviewResource } from '../apis/authentication/review-resources.js';
import type { BuiltinResourceDefinition } from '../apis/meta/builtin-definition.js';
import { apiErrors } from '../apis/meta/status.js';
import type { ApiObject } from '../apis/object.js';
import type { UserInfo } from '../apis/request/user-info.js';
import { isPlainObject } from '../apis/schema/json-value.js';
import type { Authenticator } from '../authn/authenticator.js';
import { reviewToken } from '../authn/token-review.js';

/** What the review APIs need of the server's authentication. */
export interface ReviewAuthentication {
  /** The whole request authenticator chain (TokenReview runs a token through it). */
  readonly authenticator: Authenticator;
  /** The server's own audiences, used when a TokenReview names none. */
  readonly apiAudiences: readonly string[];
}

/** `authentication/v1` UserInfo of a user, with kube's field names and empty fields left out. */
function userInfoObject(user: UserInfo): Record<string, unknown> {
  const out: Record<string, unknown> = { username: user.name };
  if (user.uid) out.uid = user.uid;
  if (user.groups.length > 0) out.groups = [...user.groups];
  if (user.extra && Object.keys(user.extra).length > 0) {
    out.extra = Object.fromEntries(Object.entries(user.extra).map(([k, v]) => [k, [...v]]));
  }
  return out;
}

/** The metadata the request carried (kube echoes it; nothing is stored, so nothing is added). */
function responseMetadata(body: ApiObject): ApiObject['metadata'] {
  return isPlainObject(body.metadata) ? body.metadata : {};
}

/**
 * The review APIs of the authentication group: `tokenreviews` (authenticates a token with the
 * server's own authenticators and audiences) and `selfsubjectreviews` (the requester's user
 * information). Both store nothing and answer 201 with the computed object. `authentication` is
 * read per request, so the definitions can exist before the authenticators are built.
 */
export function authenticationReviewResources(
  domain: ApiDomain,
  authentication: () => ReviewAuthentication,
): BuiltinResourceDefinition[] {
  const tokenReviews = tokenReviewResource(domain, {
    async create(ctx, body) {
      const spec = isPlainObject(body.spec) ? body.spec : {};
      const token = typeof spec.token === 'string' ? spec.token : '';
      if (token === '') throw apiErrors.badRequest('token is required for TokenReview in authentication');
      const requested = Array.isArray(spec.audiences) ? (spec.audiences as string[]) : [];
      const { authenticator, apiAudiences } = authentication();
      const audiences = requested.length > 0 ? requested : apiAudiences;
      const outcome = await reviewToken(authenticator, token, audiences, ctx.signal);
      if (audiences.length > 0 && outcome.user && !outcome.audiences?.some((a) => audiences.includes(a))) {
        // An authenticator vouched for a token without saying it is valid for the audiences asked.
        throw apiErrors.internal(new Error('error validating audience'));
      }
      const status: Record<string, unknown> = {};
      if (outcome.authenticated) status.authenticated = true;
      status.user = outcome.user ? userInfoObject(outcome.user) : {};
      if (outcome.user && outcome.audiences && outcome.audiences.length > 0) status.audiences = [...outcome.audiences];
      if (outcome.error) status.error = outcome.error;
      return { ...body, metadata: responseMetadata(body), status } as ApiObject;
    },
  });
  const selfSubjectReviews = selfSubjectReviewResource(domain, {
    async create(ctx, body) {
      return { ...body, metadata: responseMetadata(body), status: { userInfo: userInfoObject(ctx.user) } } as ApiObject;
    },
  });
  return [tokenReviews, selfSubjectReviews];
}

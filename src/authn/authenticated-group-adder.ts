import {
  ANONYMOUS_USER,
  AUTHENTICATED_GROUP,
  type Authenticator,
  type AuthResult,
  type RequestHead,
  UNAUTHENTICATED_GROUP,
} from './authenticator.js';

/**
 * Adds `system:authenticated` to every user `inner` identifies, except `system:anonymous` and users already
 * in `system:authenticated` or `system:unauthenticated` (kube-apiserver's AuthenticatedGroupAdder).
 */
export function authenticatedGroupAdder(inner: Authenticator): Authenticator {
  // Authenticators that return a cached result object (x509) get a cached widened result too.
  const widened = new WeakMap<AuthResult, AuthResult>();
  const widen = (result: AuthResult): AuthResult => {
    if (result.kind !== 'user') return result;
    const { user } = result;
    if (user.name === ANONYMOUS_USER) return result;
    for (const g of user.groups) if (g === AUTHENTICATED_GROUP || g === UNAUTHENTICATED_GROUP) return result;
    let out = widened.get(result);
    if (out === undefined) {
      out = Object.freeze({
        ...result,
        user: Object.freeze({ ...user, groups: Object.freeze([...user.groups, AUTHENTICATED_GROUP]) }),
      });
      widened.set(result, out);
    }
    return out;
  };
  return {
    authenticate(req: RequestHead): AuthResult | Promise<AuthResult> {
      const result = inner.authenticate(req);
      return result instanceof Promise ? result.then(widen) : widen(result);
    },
  } satisfies Authenticator;
}

import type { Abortable } from '../util/abortable.js';
import type { Attributes, AuthorizationResult, Authorizer } from './authorizer.js';

/**
 * Consults `authorizers` in order: the first `allow` or `deny` is final, `no-opinion` passes to
 * the next. When every module has no opinion the result is `no-opinion` with their non-empty
 * reasons joined by newlines (the caller denies it).
 */
export function unionAuthorizer(authorizers: readonly Authorizer[]): Authorizer {
  const list = [...authorizers];
  return {
    async authorize(a: Attributes, request: Abortable): Promise<AuthorizationResult> {
      const reasons: string[] = [];
      for (const authz of list) {
        const r = await authz.authorize(a, request);
        if (r.decision !== 'no-opinion') return r;
        if (r.reason) reasons.push(r.reason);
      }
      return { decision: 'no-opinion', reason: reasons.join('\n') };
    },
  };
}

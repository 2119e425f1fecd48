import type { UserInfo } from '../apis/request/user-info.js';
import type { Abortable } from '../util/abortable.js';
import { type Attributes, type AuthorizationResult, type Authorizer, NO_OPINION_RESULT } from './authorizer.js';
import { mergeRules, type RulesResult } from './rules.js';

/**
 * Consults `authorizers` in order: the first `allow` or `deny` is final, `no-opinion` passes to
 * the next. When every module has no opinion the result is `no-opinion` with their non-empty
 * reasons joined by newlines (the caller denies it).
 */
export function unionAuthorizer(authorizers: readonly Authorizer[]): Authorizer {
  const list = [...authorizers];
  // Allocates nothing unless a module gives a reason for its lack of opinion (the hot path).
  const decideAll = (a: Attributes): AuthorizationResult => {
    let reasons: string[] | undefined;
    for (let i = 0; i < list.length; i++) {
      const r = (list[i].decide as (a: Attributes) => AuthorizationResult)(a);
      if (r.decision !== 'no-opinion') return r;
      if (r.reason) {
        reasons ??= [];
        reasons.push(r.reason);
      }
    }
    return reasons === undefined ? NO_OPINION_RESULT : { decision: 'no-opinion', reason: reasons.join('\n') };
  };
  const synchronous = list.every((a) => a.decide !== undefined);
  return {
    ...(synchronous ? { decide: decideAll } : {}),
    async authorize(a: Attributes, request: Abortable): Promise<AuthorizationResult> {
      if (synchronous) return decideAll(a);
      const reasons: string[] = [];
      for (const authz of list) {
        const r = await authz.authorize(a, request);
        if (r.decision !== 'no-opinion') return r;
        if (r.reason) reasons.push(r.reason);
      }
      return { decision: 'no-opinion', reason: reasons.join('\n') };
    },
    async rulesFor(user: UserInfo, namespace: string, request: Abortable): Promise<RulesResult> {
      const results: RulesResult[] = [];
      for (const authz of list) {
        if (authz.rulesFor) results.push(await authz.rulesFor(user, namespace, request));
        else results.push({ resourceRules: [], nonResourceRules: [], incomplete: true, errors: [] });
      }
      return mergeRules(results);
    },
  };
}

import type { UserInfo } from '../apis/request/user-info.js';
import type { Abortable } from '../util/abortable.js';
import { aggregateErrorMessage } from '../util/go-errors.js';
import { type Attributes, type AuthorizationResult, type Authorizer, NO_OPINION_RESULT } from './authorizer.js';
import { mergeRules, type RulesResult } from './rules.js';

/** The end of a chain where nobody decided: their reasons joined by newlines, their errors aggregated. */
function noOpinion(reasons: readonly string[] | undefined, errors: readonly string[] | undefined): AuthorizationResult {
  if (reasons === undefined && errors === undefined) return NO_OPINION_RESULT;
  const reason = reasons === undefined ? '' : reasons.join('\n');
  return errors === undefined
    ? { decision: 'no-opinion', reason }
    : { decision: 'no-opinion', reason, evaluationError: aggregateErrorMessage(errors) };
}

/**
 * Consults `authorizers` in order: the first `allow` or `deny` is final (with that module's
 * error, if any), `no-opinion` passes to the next. When every module has no opinion the result
 * is `no-opinion` with their non-empty reasons joined by newlines and their errors aggregated
 * as Go does (the caller denies it), as kube's union authorizer.
 */
export function unionAuthorizer(authorizers: readonly Authorizer[]): Authorizer {
  const list = [...authorizers];
  // Allocates nothing unless a module gives a reason for its lack of opinion (the hot path).
  const decideAll = (a: Attributes): AuthorizationResult => {
    let reasons: string[] | undefined;
    let errors: string[] | undefined;
    for (let i = 0; i < list.length; i++) {
      const r = (list[i].decide as (a: Attributes) => AuthorizationResult)(a);
      if (r.decision !== 'no-opinion') return r;
      if (r.reason) {
        reasons ??= [];
        reasons.push(r.reason);
      }
      if (r.evaluationError) {
        errors ??= [];
        errors.push(r.evaluationError);
      }
    }
    return noOpinion(reasons, errors);
  };
  const synchronous = list.every((a) => a.decide !== undefined);
  return {
    ...(synchronous ? { decide: decideAll } : {}),
    async authorize(a: Attributes, request: Abortable): Promise<AuthorizationResult> {
      if (synchronous) return decideAll(a);
      let reasons: string[] | undefined;
      let errors: string[] | undefined;
      for (const authz of list) {
        const r = await authz.authorize(a, request);
        if (r.decision !== 'no-opinion') return r;
        if (r.reason) {
          reasons ??= [];
          reasons.push(r.reason);
        }
        if (r.evaluationError) {
          errors ??= [];
          errors.push(r.evaluationError);
        }
      }
      return noOpinion(reasons, errors);
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

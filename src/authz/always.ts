import { ALLOW_RESULT, type AuthorizationResult, type Authorizer } from './authorizer.js';
import { ALL_RULES, NO_RULES, type RulesResult } from './rules.js';

/** `AlwaysAllow`: every request is allowed (insecure; the default until RBAC is configured). */
export const alwaysAllow: Authorizer = {
  async authorize(): Promise<AuthorizationResult> {
    return ALLOW_RESULT;
  },
  decide(): AuthorizationResult {
    return ALLOW_RESULT;
  },
  async rulesFor(): Promise<RulesResult> {
    return ALL_RULES;
  },
};

const DENIED: AuthorizationResult = Object.freeze({ decision: 'deny', reason: 'Everything is forbidden.' });

/** `AlwaysDeny`: every request is denied (for tests), with kube's reason. */
export const alwaysDeny: Authorizer = {
  async authorize(): Promise<AuthorizationResult> {
    return DENIED;
  },
  decide(): AuthorizationResult {
    return DENIED;
  },
  async rulesFor(): Promise<RulesResult> {
    return NO_RULES;
  },
};

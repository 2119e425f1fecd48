import { PRIVILEGED_GROUP } from '../apis/request/user-info.js';
import {
  ALLOW_RESULT,
  type Attributes,
  type AuthorizationResult,
  type Authorizer,
  NO_OPINION_RESULT,
} from './authorizer.js';
import { NO_RULES, type RulesResult } from './rules.js';

/**
 * Allows members of the given groups everything and has no opinion on anyone else. Put first in
 * the chain, it lets `system:masters` bypass every other module, as kube-apiserver does.
 */
export function privilegedGroups(groups: readonly string[] = [PRIVILEGED_GROUP]): Authorizer {
  const set = new Set(groups);
  const decide = (a: Attributes): AuthorizationResult => {
    const groups = a.user.groups;
    for (let i = 0; i < groups.length; i++) if (set.has(groups[i])) return ALLOW_RESULT;
    return NO_OPINION_RESULT;
  };
  return {
    async authorize(a: Attributes): Promise<AuthorizationResult> {
      return decide(a);
    },
    decide,
    // kube-apiserver lists no rules for the privileged groups (and is not incomplete).
    async rulesFor(): Promise<RulesResult> {
      return NO_RULES;
    },
  };
}

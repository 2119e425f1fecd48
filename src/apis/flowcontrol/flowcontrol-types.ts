import type { ApiObject } from '../object.js';

/** The `flowcontrol.apiserver.<domain>/v1` kinds as the rules read them. */

export interface FlowControlSubject {
  kind?: string;
  user?: { name?: string };
  group?: { name?: string };
  serviceAccount?: { name?: string; namespace?: string };
}

export interface ResourcePolicyRule {
  verbs?: string[];
  apiGroups?: string[];
  resources?: string[];
  clusterScope?: boolean;
  namespaces?: string[];
}

export interface NonResourcePolicyRule {
  verbs?: string[];
  nonResourceURLs?: string[];
}

export interface PolicyRulesWithSubjects {
  subjects?: FlowControlSubject[];
  resourceRules?: ResourcePolicyRule[];
  nonResourceRules?: NonResourcePolicyRule[];
}

export interface FlowSchemaSpec {
  priorityLevelConfiguration?: { name?: string };
  matchingPrecedence?: number;
  distinguisherMethod?: { type?: string };
  rules?: PolicyRulesWithSubjects[];
}

export interface FlowControlCondition {
  type?: string;
  status?: string;
  lastTransitionTime?: string;
  reason?: string;
  message?: string;
}

export interface FlowSchema extends ApiObject {
  spec?: FlowSchemaSpec;
  status?: { conditions?: FlowControlCondition[] };
}

export interface QueuingConfiguration {
  queues?: number;
  handSize?: number;
  queueLengthLimit?: number;
}

export interface LimitedPriorityLevelConfiguration {
  nominalConcurrencyShares?: number | null;
  limitResponse?: { type?: string; queuing?: QueuingConfiguration };
  lendablePercent?: number;
  borrowingLimitPercent?: number;
}

export interface ExemptPriorityLevelConfiguration {
  nominalConcurrencyShares?: number;
  lendablePercent?: number;
}

export interface PriorityLevelConfigurationSpec {
  type?: string;
  limited?: LimitedPriorityLevelConfiguration;
  exempt?: ExemptPriorityLevelConfiguration;
}

export interface PriorityLevelConfiguration extends ApiObject {
  spec?: PriorityLevelConfigurationSpec;
  status?: { conditions?: FlowControlCondition[] };
}

/** Name of the mandatory exempt priority level and flow schema. */
export const EXEMPT = 'exempt';
/** The highest matching precedence a FlowSchema may have. */
export const MAX_MATCHING_PRECEDENCE = 10000;

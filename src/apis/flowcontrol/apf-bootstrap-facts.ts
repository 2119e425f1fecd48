import type { ApiDomain } from '../api-domain.js';
import type {
  FlowControlSubject,
  FlowSchemaSpec,
  NonResourcePolicyRule,
  PriorityLevelConfigurationSpec,
  ResourcePolicyRule,
} from './flowcontrol-types.js';

/**
 * kube-apiserver v1.32's API Priority and Fairness bootstrap configuration, written for Orch:
 * the mandatory priority levels and flow schemas (`exempt`, `catch-all`) and the suggested ones,
 * each as name and spec. Names kube derives from its product (the controller manager and
 * scheduler users, the system namespace, the coordination group) are taken from `d`.
 */

/** One bootstrap object: its name and its (fully defaulted) spec. */
export interface BootstrapFacts<S> {
  readonly name: string;
  readonly spec: S;
}

const group = (name: string): FlowControlSubject => ({ kind: 'Group', group: { name } });
const user = (name: string): FlowControlSubject => ({ kind: 'User', user: { name } });
const serviceAccount = (namespace: string, name: string): FlowControlSubject => ({
  kind: 'ServiceAccount',
  serviceAccount: { namespace, name },
});
const everything = (verbs = ['*']): ResourcePolicyRule => ({
  verbs,
  apiGroups: ['*'],
  resources: ['*'],
  clusterScope: true,
  namespaces: ['*'],
});
const resources = (verbs: string[], apiGroup: string, names: string[], clusterScope = false): ResourcePolicyRule => ({
  verbs,
  apiGroups: [apiGroup],
  resources: names,
  clusterScope,
  namespaces: ['*'],
});
const allNonResource: NonResourcePolicyRule = { verbs: ['*'], nonResourceURLs: ['*'] };
const EVERYONE = ['system:unauthenticated', 'system:authenticated'];
const GET_CREATE_UPDATE = ['get', 'create', 'update'];

function limited(
  shares: number,
  lendablePercent: number,
  queues: number,
  handSize: number,
): PriorityLevelConfigurationSpec {
  return {
    type: 'Limited',
    limited: {
      nominalConcurrencyShares: shares,
      lendablePercent,
      limitResponse: { type: 'Queue', queuing: { queues, handSize, queueLengthLimit: 50 } },
    },
  };
}

function schema(
  pl: string,
  matchingPrecedence: number,
  distinguisher: 'ByUser' | 'ByNamespace' | undefined,
  subjects: FlowControlSubject[],
  resourceRules?: ResourcePolicyRule[],
  nonResourceRules?: NonResourcePolicyRule[],
): FlowSchemaSpec {
  const spec: FlowSchemaSpec = { priorityLevelConfiguration: { name: pl }, matchingPrecedence };
  if (distinguisher) spec.distinguisherMethod = { type: distinguisher };
  const rule: NonNullable<FlowSchemaSpec['rules']>[number] = { subjects };
  if (resourceRules) rule.resourceRules = resourceRules;
  if (nonResourceRules) rule.nonResourceRules = nonResourceRules;
  spec.rules = [rule];
  return spec;
}

/** The mandatory priority levels: `catch-all` (Limited, 5 shares, Reject) and `exempt`. */
export function mandatoryPriorityLevelFacts(): BootstrapFacts<PriorityLevelConfigurationSpec>[] {
  return [
    {
      name: 'catch-all',
      spec: {
        type: 'Limited',
        limited: { nominalConcurrencyShares: 5, lendablePercent: 0, limitResponse: { type: 'Reject' } },
      },
    },
    { name: 'exempt', spec: { type: 'Exempt', exempt: { nominalConcurrencyShares: 0, lendablePercent: 0 } } },
  ];
}

/** The mandatory flow schemas: `exempt` (system:masters) and `catch-all` (everyone). */
export function mandatoryFlowSchemaFacts(): BootstrapFacts<FlowSchemaSpec>[] {
  return [
    {
      name: 'exempt',
      spec: schema('exempt', 1, undefined, [group('system:masters')], [everything()], [allNonResource]),
    },
    {
      name: 'catch-all',
      spec: schema('catch-all', 10000, 'ByUser', EVERYONE.map(group), [everything()], [allNonResource]),
    },
  ];
}

/** The suggested priority levels, in kube's order. */
export function suggestedPriorityLevelFacts(): BootstrapFacts<PriorityLevelConfigurationSpec>[] {
  return [
    { name: 'system', spec: limited(30, 33, 64, 6) },
    { name: 'node-high', spec: limited(40, 25, 64, 6) },
    { name: 'leader-election', spec: limited(10, 0, 16, 4) },
    { name: 'workload-high', spec: limited(40, 50, 128, 6) },
    { name: 'workload-low', spec: limited(100, 90, 128, 6) },
    { name: 'global-default', spec: limited(20, 50, 128, 6) },
  ];
}

/** The suggested flow schemas, in kube's order. */
export function suggestedFlowSchemaFacts(d: ApiDomain): BootstrapFacts<FlowSchemaSpec>[] {
  const ns = d.systemNamespace;
  const coordination = d.group('coordination');
  const controllerManager = d.controllerManagerUser;
  const scheduler = d.systemUser('scheduler');
  const allSystemServiceAccounts = serviceAccount(ns, '*');
  return [
    {
      name: 'system-nodes',
      spec: schema('system', 500, 'ByUser', [group('system:nodes')], [everything()], [allNonResource]),
    },
    {
      name: 'system-node-high',
      spec: schema(
        'node-high',
        400,
        'ByUser',
        [group('system:nodes')],
        [resources(['*'], '', ['nodes', 'nodes/status'], true), resources(['*'], coordination, ['leases'])],
      ),
    },
    {
      name: 'probes',
      spec: schema('exempt', 2, undefined, EVERYONE.map(group), undefined, [
        { verbs: ['get'], nonResourceURLs: ['/healthz', '/readyz', '/livez'] },
      ]),
    },
    {
      name: 'system-leader-election',
      spec: schema(
        'leader-election',
        100,
        'ByUser',
        [user(controllerManager), user(scheduler), allSystemServiceAccounts],
        [resources(GET_CREATE_UPDATE, coordination, ['leases'])],
      ),
    },
    {
      name: 'workload-leader-election',
      spec: schema(
        'leader-election',
        200,
        'ByUser',
        [allSystemServiceAccounts],
        [
          resources(GET_CREATE_UPDATE, '', ['endpoints', 'configmaps']),
          resources(GET_CREATE_UPDATE, coordination, ['leases']),
        ],
      ),
    },
    {
      name: 'endpoint-controller',
      spec: schema(
        'workload-high',
        150,
        'ByUser',
        [
          user(controllerManager),
          serviceAccount(ns, 'endpoint-controller'),
          serviceAccount(ns, 'endpointslicemirroring-controller'),
        ],
        [resources(GET_CREATE_UPDATE, '', ['endpoints'])],
      ),
    },
    {
      name: d.componentName('controller-manager'),
      spec: schema('workload-high', 800, 'ByNamespace', [user(controllerManager)], [everything()], [allNonResource]),
    },
    {
      name: d.componentName('scheduler'),
      spec: schema('workload-high', 800, 'ByNamespace', [user(scheduler)], [everything()], [allNonResource]),
    },
    {
      name: `${ns}-service-accounts`,
      spec: schema('workload-high', 900, 'ByNamespace', [allSystemServiceAccounts], [everything()], [allNonResource]),
    },
    {
      name: 'service-accounts',
      spec: schema('workload-low', 9000, 'ByUser', [group('system:serviceaccounts')], [everything()], [allNonResource]),
    },
    {
      name: 'global-default',
      spec: schema('global-default', 9900, 'ByUser', EVERYONE.map(group), [everything()], [allNonResource]),
    },
  ];
}

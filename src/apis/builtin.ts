import { type ApiDomain, ORCH_DOMAIN } from './api-domain.js';
import { appsResources } from './apps/apps-resources.js';
import { autoscalingResources } from './autoscaling/autoscaling-resources.js';
import { batchResources } from './batch/batch-resources.js';
import { certificatesResources } from './certificates/certificates-resources.js';
import { leaseResource } from './coordination/lease.js';
import { leaseCandidateResource } from './coordination/lease-candidate.js';
import { configMapResource } from './core/config-map.js';
import { eventResource } from './core/event.js';
import { namespaceResource } from './core/namespace.js';
import { podResources } from './core/pod-resources.js';
import { POD_TEMPLATE_RULES } from './core/pod-template-rules.js';
import { replicationControllerResource } from './core/replication-controller.js';
import { secretResource } from './core/secret.js';
import { serviceAccountResource } from './core/service-account.js';
import { serviceResources } from './core/service-resources.js';
import { discoveryResources } from './discovery/discovery-resources.js';
import { eventV1Resource } from './events/events-resources.js';
import { flowcontrolResources } from './flowcontrol/flowcontrol-resources.js';
import type { BuiltinResourceDefinition } from './meta/builtin-definition.js';
import { networkingResources } from './networking/networking-resources.js';
import { nodeResources } from './node/node-resources.js';
import { policyResources } from './policy/policy-resources.js';
import { rbacResources } from './rbac/rbac-resources.js';
import { schedulingResources } from './scheduling/scheduling-resources.js';
import { storageResources } from './storage/storage-resources.js';

export interface BuiltinOptions {
  /** Names of groups, namespaces, labels and finalizers; default `orch.io`. */
  readonly domain?: ApiDomain;
  /** Feature gate `CoordinatedLeaderElection` (alpha; default false). */
  readonly coordinatedLeaderElection?: boolean;
}

function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value)) deepFreeze(v);
  }
  return value;
}

/**
 * Every compiled-in resource: core/v1 namespaces, configmaps, secrets, serviceaccounts, events,
 * coordination.<domain>/v1 leases and the four rbac.authorization.<domain>/v1 kinds. Each call builds fresh definitions; their schemas are
 * shared constants and therefore deeply frozen.
 */
export function builtinResources(options: BuiltinOptions = {}): BuiltinResourceDefinition[] {
  const domain = options.domain ?? ORCH_DOMAIN;
  const defs = [
    namespaceResource(domain),
    configMapResource(domain),
    secretResource(domain),
    serviceAccountResource(domain),
    eventResource(domain),
    leaseResource({ coordinatedLeaderElection: options.coordinatedLeaderElection }, domain),
    leaseCandidateResource(domain),
    ...rbacResources(domain),
    ...podResources(domain),
    ...policyResources(domain),
    ...schedulingResources(domain),
    ...nodeResources(domain),
    ...storageResources(domain),
    ...certificatesResources(domain),
    ...flowcontrolResources(domain),
    ...serviceResources(domain),
    ...discoveryResources(domain),
    ...networkingResources(domain),
    replicationControllerResource(domain, POD_TEMPLATE_RULES),
    ...appsResources(domain, { podTemplate: POD_TEMPLATE_RULES }),
    eventV1Resource(domain),
    ...batchResources(domain, { podTemplate: POD_TEMPLATE_RULES }),
    ...autoscalingResources(domain),
  ];
  for (const def of defs) deepFreeze(def.schema);
  return defs;
}

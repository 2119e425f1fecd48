/**
 * The core/v1 kinds of pods and the machines and storage they use, and the pod sub-resources the
 * server answers itself (it supplies their implementations, which reach other resources).
 */
import { type ApiDomain, ORCH_DOMAIN } from '../api-domain.js';
import type { BuiltinResourceDefinition } from '../meta/builtin-definition.js';
import { virtualResource } from '../meta/virtual-definition.js';
import { POLICY_GROUP } from '../policy/policy-resources.js';
import { evictionSchema } from '../policy/policy-v1-schemas.js';
import type {
  SubresourceConnect,
  SubresourceCreate,
  SubresourceDefinition,
  VirtualCreate,
} from '../resource-definition.js';
import {
  type CoreKindOptions,
  limitRangeResource,
  nodeResource,
  persistentVolumeClaimResource,
  persistentVolumeResource,
  resourceQuotaResource,
} from './cluster-kinds.js';
import { bindingSchema } from './core-v1-schemas.js';
import { podBindingWriteStrategy, podResource, podTemplateResource } from './pod-definitions.js';

/**
 * Pods, pod templates, nodes, persistent volumes and claims, limit ranges and resource quotas.
 * Without the server's sub-resources (see {@link podServerSubresources}).
 */
export function podResources(
  domain: ApiDomain = ORCH_DOMAIN,
  options: CoreKindOptions = {},
): BuiltinResourceDefinition[] {
  return [
    podResource(domain),
    podTemplateResource(domain),
    nodeResource(domain),
    persistentVolumeResource(domain, options),
    persistentVolumeClaimResource(domain),
    limitRangeResource(domain),
    resourceQuotaResource(domain),
  ];
}

/** The server's implementations of the pod sub-resources that reach other resources. */
export interface PodSubresourceImplementations {
  /** `pods/<name>/binding`: POST a Binding. */
  readonly binding: SubresourceCreate['create'];
  /** `pods/<name>/eviction`: POST a policy/v1 Eviction. */
  readonly eviction: SubresourceCreate['create'];
  /** `pods/<name>/{log,exec,attach,portforward,proxy}` by sub-resource name. */
  connect(subresource: string): SubresourceConnect['connect'];
  /** `nodes/<name>/proxy`. */
  readonly nodeProxy: SubresourceConnect['connect'];
}

/** kube's options kinds of the connect sub-resources, with the verbs discovery lists. */
const POD_CONNECT: readonly (readonly [name: string, kind: string, verbs: readonly string[]])[] = [
  ['attach', 'PodAttachOptions', ['create', 'get']],
  ['exec', 'PodExecOptions', ['create', 'get']],
  ['log', 'Pod', ['get']],
  ['portforward', 'PodPortForwardOptions', ['create', 'get']],
  ['proxy', 'PodProxyOptions', ['create', 'delete', 'get', 'patch', 'update']],
];

/**
 * The pod sub-resources the server answers (binding, eviction, attach, exec, log, portforward,
 * proxy), to add to `pods`; and `nodes/proxy`, to add to `nodes`.
 */
export function podServerSubresources(impl: PodSubresourceImplementations): {
  readonly pods: SubresourceDefinition[];
  readonly nodes: SubresourceDefinition[];
} {
  const pods: SubresourceDefinition[] = [
    {
      name: 'binding',
      verbs: ['create'],
      // The binder writes the pod through this strategy (kube's binding bypasses the pod's update rules).
      strategy: podBindingWriteStrategy,
      create: { group: '', version: 'v1', kind: 'Binding', schema: bindingSchema, create: impl.binding },
    },
    {
      name: 'eviction',
      verbs: ['create'],
      create: { group: POLICY_GROUP, version: 'v1', kind: 'Eviction', schema: evictionSchema, create: impl.eviction },
    },
    ...POD_CONNECT.map(([name, kind, verbs]) => ({
      name,
      verbs,
      connect: { kind, connect: impl.connect(name) },
    })),
  ];
  const nodes: SubresourceDefinition[] = [
    {
      name: 'proxy',
      verbs: ['create', 'delete', 'get', 'patch', 'update'],
      connect: { kind: 'NodeProxyOptions', connect: impl.nodeProxy },
    },
  ];
  return { pods, nodes };
}

/** core/v1 `bindings`: POST a Binding named after the pod to bind (kube's legacy binding resource). */
export function bindingsResource(create: VirtualCreate['create']): BuiltinResourceDefinition {
  return virtualResource(
    {
      group: '',
      version: 'v1',
      kind: 'Binding',
      resource: 'bindings',
      singular: 'binding',
      namespaced: true,
      schema: bindingSchema,
    },
    { create },
  );
}

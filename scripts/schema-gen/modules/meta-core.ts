import { builtinModule, META } from '../externals.js';
import type { ModuleConfig } from '../module-config.js';
import { LABEL_SELECTOR_TYPES } from '../rbac-config.js';

const CORE = 'io.k8s.api.core.v1';

/**
 * apimachinery `meta/v1`: the metadata every object and list carries, the bodies of API
 * operations (Status, DeleteOptions, WatchEvent) and the types built-in groups share (label
 * and field selector requirements, conditions).
 */
export const META_MODULE: ModuleConfig = {
  ...builtinModule({
    name: 'meta',
    facts: 'meta-v1',
    goPackage: 'k8s.io/apimachinery/pkg/apis/meta/v1',
    output: 'src/apis/meta/meta-v1-schemas.ts',
    types: {
      ...LABEL_SELECTOR_TYPES,
      [`${META}.Condition`]: 'One observed condition of an object: type, status, reason, message and last change.',
      [`${META}.ObjectMeta`]:
        'Metadata of a stored object: name, namespace, labels, annotations, owners, finalizers and system fields.',
      [`${META}.OwnerReference`]: 'An object this one belongs to: same namespace or cluster-scoped, named by UID.',
      [`${META}.ManagedFieldsEntry`]: 'The fields one manager set with one kind of operation, at one API version.',
      [`${META}.ListMeta`]: 'Metadata of a list: the resource version it was read at and how to continue it.',
      [`${META}.Status`]: 'The outcome of an operation that returns no object: success, or an error and why.',
      [`${META}.StatusDetails`]: 'The object an outcome concerns and the causes of an error.',
      [`${META}.StatusCause`]: 'One cause of an error: a reason, a message and the field it concerns.',
      [`${META}.DeleteOptions`]: 'How to delete: grace period, preconditions, dependents and dry run.',
      [`${META}.Preconditions`]: 'What must still hold of an object for an operation to go ahead.',
      [`${META}.Patch`]: 'The body of a patch request, in the form its content type names.',
      [`${META}.WatchEvent`]: 'One event of a watch stream: what happened and the object it happened to.',
      [`${META}.FieldSelectorRequirement`]: 'One field requirement: a key, an operator and the values it relates.',
    },
    uses: [],
  }),
  // kube checks owner references one by one in Go: entries sharing a UID are not an error.
  orchMarkers: { [`${META}.ObjectMeta`]: { ownerReferences: { 'x-orch-list-duplicates': 'allowed' } } },
};

/** core/v1 kinds and every type they hold. */
export const CORE_MODULE: ModuleConfig = builtinModule({
  name: 'core',
  facts: 'core-v1',
  goPackage: 'k8s.io/api/core/v1',
  output: 'src/apis/core/core-v1-schemas.ts',
  types: {
    [`${CORE}.Pod`]: 'A group of containers scheduled together onto one node, with shared volumes and network.',
    [`${CORE}.PodTemplate`]: 'A stored pod template that controllers can copy pods from.',
    [`${CORE}.Node`]: 'A machine in the cluster that runs pods, with its capacity and reported state.',
    [`${CORE}.PersistentVolume`]: 'A piece of cluster storage that a claim can bind to.',
    [`${CORE}.PersistentVolumeClaim`]: 'A namespaced request for storage, bound to a persistent volume.',
    [`${CORE}.LimitRange`]:
      'Per-namespace minimum, maximum and default resource amounts of pods, containers and claims.',
    [`${CORE}.ResourceQuota`]: 'Caps on the total resources and object counts used in a namespace.',
    [`${CORE}.Service`]: 'A stable network endpoint (virtual IP, ports, DNS name) in front of a set of pods.',
    [`${CORE}.Endpoints`]: 'The addresses and ports that currently back a service.',
    [`${CORE}.ReplicationController`]:
      'Keeps a number of copies of a pod template running (the older form of ReplicaSet).',
    [`${CORE}.Binding`]: 'Assigns a pod to a node; posted to the binding subresource of a pod.',
    [`${CORE}.ConfigMap`]: 'Configuration data for pods to use: string values and binary values by key.',
    [`${CORE}.Secret`]: 'Sensitive data by key, of a type that says what keys it holds; at most 1 MiB in all.',
    [`${CORE}.Namespace`]: 'A scope for the names of namespaced objects, and its lifecycle phase.',
    [`${CORE}.ServiceAccount`]: 'An identity for processes in pods, with the secrets they may use.',
    [`${CORE}.Event`]: 'A report of something that happened to an object: reason, message, source and count.',
    // Not reached from a core kind, but used by storage/v1 (StorageClass.allowedTopologies).
    [`${CORE}.TopologySelectorTerm`]: undefined,
  },
  uses: ['meta'],
});

import type { ControllerRevision } from '../../apis/apps/controller-revision.js';
import type { DaemonSet } from '../../apis/apps/daemon-set.js';
import type { Deployment } from '../../apis/apps/deployment.js';
import type { ReplicaSet } from '../../apis/apps/replica-set.js';
import type { StatefulSet } from '../../apis/apps/stateful-set.js';
import type { CronJob } from '../../apis/batch/cron-job.js';
import type { Job } from '../../apis/batch/job-defaults.js';
import type { CertificateSigningRequest } from '../../apis/certificates/csr-validation.js';
import type { Lease } from '../../apis/coordination/lease.js';
import type { LeaseCandidate } from '../../apis/coordination/lease-candidate.js';
import type { ConfigMap } from '../../apis/core/config-map.js';
import type { Event } from '../../apis/core/event.js';
import type { Namespace } from '../../apis/core/namespace.js';
import type { Node } from '../../apis/core/node-rules.js';
import type { PersistentVolume, PersistentVolumeClaim } from '../../apis/core/persistent-volume-rules.js';
import type { Pod, PodTemplate } from '../../apis/core/pod-types.js';
import type { LimitRange, ResourceQuota } from '../../apis/core/quota-rules.js';
import type { ReplicationController } from '../../apis/core/replication-controller-rules.js';
import type { Secret } from '../../apis/core/secret.js';
import type { ServiceAccount } from '../../apis/core/service-account.js';
import type { Endpoints as EndpointsObject, Service } from '../../apis/core/service-types.js';
import type { EndpointSlice } from '../../apis/discovery/endpoint-slice-types.js';
import type { FlowSchema, PriorityLevelConfiguration } from '../../apis/flowcontrol/flowcontrol-types.js';
import type { Ingress, IngressClass, NetworkPolicy } from '../../apis/networking/networking-types.js';
import type { RuntimeClass } from '../../apis/node/runtime-class-validation.js';
import type { ApiObject } from '../../apis/object.js';
import type { PodDisruptionBudget } from '../../apis/policy/pdb-rules.js';
import type { ClusterRole, ClusterRoleBinding, Role, RoleBinding } from '../../apis/rbac/rbac-types.js';
import type { PriorityClass } from '../../apis/scheduling/priority-class-validation.js';
import type { CSIDriver } from '../../apis/storage/csi-driver-rules.js';
import type { CSINode } from '../../apis/storage/csi-node-rules.js';
import type { CSIStorageCapacity } from '../../apis/storage/csi-storage-capacity-rules.js';
import type { StorageClass } from '../../apis/storage/storage-class-rules.js';
import type { VolumeAttachment } from '../../apis/storage/volume-attachment-rules.js';
import { type ResourceType, resourceType } from './resource-type.js';

/*
 * Descriptors of the built-in resources whose object types the repository defines (`src/apis/`),
 * for typed clients: `client.typed(ConfigMaps)`. Each names the resource as the server serves it
 * under either API domain (a test checks them against the built-in definitions).
 */

/** A core (`v1`) resource. */
function core<T extends ApiObject>(resource: string, kind: string, namespaced: boolean): ResourceType<T> {
  return resourceType<T>({ group: '', version: 'v1', resource, kind, namespaced });
}

/** A resource of a group named without the API domain (`apps`, `batch`, `policy`). */
function fixed<T extends ApiObject>(
  group: string,
  resource: string,
  kind: string,
  namespaced: boolean,
): ResourceType<T> {
  return resourceType<T>({ group, version: 'v1', resource, kind, namespaced });
}

/** A resource of a group the API domain completes (`coordination` → `coordination.<domain>`). */
function ofDomain<T extends ApiObject>(
  group: string,
  version: string,
  resource: string,
  kind: string,
  namespaced: boolean,
): ResourceType<T> {
  return resourceType<T>({ group, domainGroup: true, version, resource, kind, namespaced });
}

export const ConfigMaps = core<ConfigMap>('configmaps', 'ConfigMap', true);
export const Endpoints = core<EndpointsObject>('endpoints', 'Endpoints', true);
export const Events = core<Event>('events', 'Event', true);
export const LimitRanges = core<LimitRange>('limitranges', 'LimitRange', true);
export const Namespaces = core<Namespace>('namespaces', 'Namespace', false);
export const Nodes = core<Node>('nodes', 'Node', false);
export const PersistentVolumeClaims = core<PersistentVolumeClaim>(
  'persistentvolumeclaims',
  'PersistentVolumeClaim',
  true,
);
export const PersistentVolumes = core<PersistentVolume>('persistentvolumes', 'PersistentVolume', false);
export const Pods = core<Pod>('pods', 'Pod', true);
export const PodTemplates = core<PodTemplate>('podtemplates', 'PodTemplate', true);
export const ReplicationControllers = core<ReplicationController>(
  'replicationcontrollers',
  'ReplicationController',
  true,
);
export const ResourceQuotas = core<ResourceQuota>('resourcequotas', 'ResourceQuota', true);
export const Secrets = core<Secret>('secrets', 'Secret', true);
export const ServiceAccounts = core<ServiceAccount>('serviceaccounts', 'ServiceAccount', true);
export const Services = core<Service>('services', 'Service', true);
export const ControllerRevisions = fixed<ControllerRevision>('apps', 'controllerrevisions', 'ControllerRevision', true);
export const DaemonSets = fixed<DaemonSet>('apps', 'daemonsets', 'DaemonSet', true);
export const Deployments = fixed<Deployment>('apps', 'deployments', 'Deployment', true);
export const ReplicaSets = fixed<ReplicaSet>('apps', 'replicasets', 'ReplicaSet', true);
export const StatefulSets = fixed<StatefulSet>('apps', 'statefulsets', 'StatefulSet', true);
export const CronJobs = fixed<CronJob>('batch', 'cronjobs', 'CronJob', true);
export const Jobs = fixed<Job>('batch', 'jobs', 'Job', true);
export const CertificateSigningRequests = ofDomain<CertificateSigningRequest>(
  'certificates',
  'v1',
  'certificatesigningrequests',
  'CertificateSigningRequest',
  false,
);
export const Leases = ofDomain<Lease>('coordination', 'v1', 'leases', 'Lease', true);
export const LeaseCandidates = ofDomain<LeaseCandidate>(
  'coordination',
  'v1alpha2',
  'leasecandidates',
  'LeaseCandidate',
  true,
);
export const EndpointSlices = ofDomain<EndpointSlice>('discovery', 'v1', 'endpointslices', 'EndpointSlice', true);
export const FlowSchemas = ofDomain<FlowSchema>('flowcontrol.apiserver', 'v1', 'flowschemas', 'FlowSchema', false);
export const PriorityLevelConfigurations = ofDomain<PriorityLevelConfiguration>(
  'flowcontrol.apiserver',
  'v1',
  'prioritylevelconfigurations',
  'PriorityLevelConfiguration',
  false,
);
export const IngressClasses = ofDomain<IngressClass>('networking', 'v1', 'ingressclasses', 'IngressClass', false);
export const Ingresses = ofDomain<Ingress>('networking', 'v1', 'ingresses', 'Ingress', true);
export const NetworkPolicies = ofDomain<NetworkPolicy>('networking', 'v1', 'networkpolicies', 'NetworkPolicy', true);
export const RuntimeClasses = ofDomain<RuntimeClass>('node', 'v1', 'runtimeclasses', 'RuntimeClass', false);
export const PodDisruptionBudgets = fixed<PodDisruptionBudget>(
  'policy',
  'poddisruptionbudgets',
  'PodDisruptionBudget',
  true,
);
export const ClusterRoleBindings = ofDomain<ClusterRoleBinding>(
  'rbac.authorization',
  'v1',
  'clusterrolebindings',
  'ClusterRoleBinding',
  false,
);
export const ClusterRoles = ofDomain<ClusterRole>('rbac.authorization', 'v1', 'clusterroles', 'ClusterRole', false);
export const RoleBindings = ofDomain<RoleBinding>('rbac.authorization', 'v1', 'rolebindings', 'RoleBinding', true);
export const Roles = ofDomain<Role>('rbac.authorization', 'v1', 'roles', 'Role', true);
export const PriorityClasses = ofDomain<PriorityClass>('scheduling', 'v1', 'priorityclasses', 'PriorityClass', false);
export const CSIDrivers = ofDomain<CSIDriver>('storage', 'v1', 'csidrivers', 'CSIDriver', false);
export const CSINodes = ofDomain<CSINode>('storage', 'v1', 'csinodes', 'CSINode', false);
export const CSIStorageCapacities = ofDomain<CSIStorageCapacity>(
  'storage',
  'v1',
  'csistoragecapacities',
  'CSIStorageCapacity',
  true,
);
export const StorageClasses = ofDomain<StorageClass>('storage', 'v1', 'storageclasses', 'StorageClass', false);
export const VolumeAttachments = ofDomain<VolumeAttachment>(
  'storage',
  'v1',
  'volumeattachments',
  'VolumeAttachment',
  false,
);

/** Every descriptor above. */
export const BUILTIN_RESOURCE_TYPES: readonly ResourceType<ApiObject>[] = [
  ConfigMaps,
  Endpoints,
  Events,
  LimitRanges,
  Namespaces,
  Nodes,
  PersistentVolumeClaims,
  PersistentVolumes,
  Pods,
  PodTemplates,
  ReplicationControllers,
  ResourceQuotas,
  Secrets,
  ServiceAccounts,
  Services,
  ControllerRevisions,
  DaemonSets,
  Deployments,
  ReplicaSets,
  StatefulSets,
  CronJobs,
  Jobs,
  CertificateSigningRequests,
  Leases,
  LeaseCandidates,
  EndpointSlices,
  FlowSchemas,
  PriorityLevelConfigurations,
  IngressClasses,
  Ingresses,
  NetworkPolicies,
  RuntimeClasses,
  PodDisruptionBudgets,
  ClusterRoleBindings,
  ClusterRoles,
  RoleBindings,
  Roles,
  PriorityClasses,
  CSIDrivers,
  CSINodes,
  CSIStorageCapacities,
  StorageClasses,
  VolumeAttachments,
];

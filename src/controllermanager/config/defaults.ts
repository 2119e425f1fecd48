import type { ApiDomain } from '../../apis/api-domain.js';
import { defaultLeaderElectionConfiguration } from '../../client/leaderelection/leader-election-configuration.js';
import { CLOUD_KIND, configNames } from './config-names.js';
import type {
  CloudControllerManagerConfiguration,
  GenericControllerManagerConfiguration,
  LeaderMigrationConfiguration,
  OrchCloudSharedConfiguration,
  OrchControllerManagerConfiguration,
} from './types.js';

/**
 * kube v1.32's defaults of the configuration kinds: the `SetDefaults_*` and
 * `RecommendedDefault*` functions (`pkg/controller/apis/config/v1alpha1/defaults.go` and each
 * controller's `config/v1alpha1/defaults.go`, `k8s.io/controller-manager/config/v1alpha1`,
 * `k8s.io/cloud-provider/config/v1alpha1`, component-base's leader election defaults) plus the
 * flag defaults kube-controller-manager applies on top (secure port 10257, `--profiling`,
 * `--cidr-allocator-type`, node lifecycle rates, leader election lock name), so that a file
 * with no members yields the configuration kube-controller-manager runs with no flags.
 * Domain-derived values (lock name and namespace, Protobuf media type, cluster name) come from
 * `domain`.
 */

/** kube-controller-manager's secure port (`ports.KubeControllerManagerPort`). */
export const CONTROLLER_MANAGER_PORT = 10257;
/** The cloud controller manager's secure port (`cloudprovider.CloudControllerManagerPort`). */
export const CLOUD_CONTROLLER_MANAGER_PORT = 10258;
/** The cloud controller manager's Lease name (not product-named in kube). */
export const CLOUD_CONTROLLER_MANAGER_NAME = 'cloud-controller-manager';

const EMPTY_MIGRATION: LeaderMigrationConfiguration = { leaderName: '', resourceLock: '', controllerLeaders: [] };

/** `RecommendedDefaultGenericControllerManagerConfiguration` with the command's serving and lock defaults. */
export function defaultGenericConfiguration(
  domain: ApiDomain,
  component: { readonly port: number; readonly leaseName: string },
): GenericControllerManagerConfiguration {
  return {
    Port: component.port,
    Address: '0.0.0.0',
    MinResyncPeriod: '12h0m0s',
    ClientConnection: {
      orchconfig: '',
      acceptContentTypes: '',
      contentType: domain.protobufMediaType,
      qps: 20,
      burst: 30,
    },
    ControllerStartInterval: '0s',
    LeaderElection: defaultLeaderElectionConfiguration({
      name: component.leaseName,
      namespace: domain.systemNamespace,
    }),
    Controllers: ['*'],
    Debugging: { enableProfiling: true, enableContentionProfiling: false },
    LeaderMigrationEnabled: false,
    LeaderMigration: EMPTY_MIGRATION,
  };
}

/** `SetDefaults_KubeCloudSharedConfiguration` and the `--cidr-allocator-type` flag default. */
export function defaultCloudSharedConfiguration(domain: ApiDomain): OrchCloudSharedConfiguration {
  return {
    CloudProvider: { Name: '', CloudConfigFile: '' },
    ExternalCloudVolumePlugin: '',
    UseServiceAccountCredentials: false,
    AllowUntaggedCloud: false,
    RouteReconciliationPeriod: '10s',
    NodeMonitorPeriod: '5s',
    ClusterName: domain.kubeconfigName,
    ClusterCIDR: '',
    AllocateNodeCIDRs: false,
    CIDRAllocatorType: 'RangeAllocator',
    ConfigureCloudRoutes: true,
    NodeSyncPeriod: '0s',
  };
}

const csr = { CertFile: '', KeyFile: '' };

/** The default OrchControllerManagerConfiguration (`KubeControllerManagerConfiguration` under `k8s.io`). */
export function defaultControllerManagerConfiguration(domain: ApiDomain): OrchControllerManagerConfiguration {
  const names = configNames(domain);
  return {
    apiVersion: names.controllerManagerApiVersion,
    kind: names.controllerManagerKind,
    Generic: defaultGenericConfiguration(domain, {
      port: CONTROLLER_MANAGER_PORT,
      leaseName: domain.controllerManagerName,
    }),
    OrchCloudShared: defaultCloudSharedConfiguration(domain),
    AttachDetachController: {
      DisableAttachDetachReconcilerSync: false,
      ReconcilerSyncLoopPeriod: '1m0s',
      disableForceDetachOnTimeout: false,
    },
    CSRSigningController: {
      ClusterSigningCertFile: '',
      ClusterSigningKeyFile: '',
      NodeAgentServingSignerConfiguration: csr,
      NodeAgentClientSignerConfiguration: csr,
      OrchAPIServerClientSignerConfiguration: csr,
      LegacyUnknownSignerConfiguration: csr,
      ClusterSigningDuration: '8760h0m0s',
    },
    DaemonSetController: { ConcurrentDaemonSetSyncs: 2 },
    DeploymentController: { ConcurrentDeploymentSyncs: 5 },
    StatefulSetController: { ConcurrentStatefulSetSyncs: 5 },
    DeprecatedController: {},
    EndpointController: { ConcurrentEndpointSyncs: 5, EndpointUpdatesBatchPeriod: '0s' },
    EndpointSliceController: {
      ConcurrentServiceEndpointSyncs: 5,
      MaxEndpointsPerSlice: 100,
      EndpointUpdatesBatchPeriod: '0s',
    },
    EndpointSliceMirroringController: {
      MirroringConcurrentServiceEndpointSyncs: 5,
      MirroringMaxEndpointsPerSubset: 1000,
      MirroringEndpointUpdatesBatchPeriod: '0s',
    },
    EphemeralVolumeController: { ConcurrentEphemeralVolumeSyncs: 5 },
    GarbageCollectorController: {
      EnableGarbageCollector: true,
      ConcurrentGCSyncs: 20,
      // garbagecollector.DefaultIgnoredResources(): events of the core and events groups.
      GCIgnoredResources: [
        { Group: '', Resource: 'events' },
        { Group: domain.group('events'), Resource: 'events' },
      ],
    },
    HPAController: {
      ConcurrentHorizontalPodAutoscalerSyncs: 5,
      HorizontalPodAutoscalerSyncPeriod: '15s',
      HorizontalPodAutoscalerDownscaleStabilizationWindow: '5m0s',
      HorizontalPodAutoscalerTolerance: 0.1,
      HorizontalPodAutoscalerCPUInitializationPeriod: '5m0s',
      HorizontalPodAutoscalerInitialReadinessDelay: '30s',
    },
    JobController: { ConcurrentJobSyncs: 5 },
    CronJobController: { ConcurrentCronJobSyncs: 5 },
    LegacySATokenCleaner: { CleanUpPeriod: '8760h0m0s' },
    NamespaceController: { NamespaceSyncPeriod: '5m0s', ConcurrentNamespaceSyncs: 10 },
    NodeIPAMController: {
      ServiceCIDR: '',
      SecondaryServiceCIDR: '',
      NodeCIDRMaskSize: 0,
      NodeCIDRMaskSizeIPv4: 0,
      NodeCIDRMaskSizeIPv6: 0,
    },
    NodeLifecycleController: {
      NodeEvictionRate: 0.1,
      SecondaryNodeEvictionRate: 0.01,
      NodeStartupGracePeriod: '1m0s',
      NodeMonitorGracePeriod: '50s',
      PodEvictionTimeout: '5m0s',
      LargeClusterSizeThreshold: 50,
      UnhealthyZoneThreshold: 0.55,
    },
    PersistentVolumeBinderController: {
      PVClaimBinderSyncPeriod: '15s',
      VolumeConfiguration: {
        EnableHostPathProvisioning: false,
        EnableDynamicProvisioning: true,
        PersistentVolumeRecyclerConfiguration: {
          MaximumRetry: 3,
          MinimumTimeoutNFS: 300,
          PodTemplateFilePathNFS: '',
          IncrementTimeoutNFS: 30,
          PodTemplateFilePathHostPath: '',
          MinimumTimeoutHostPath: 60,
          IncrementTimeoutHostPath: 30,
        },
        FlexVolumePluginDir: '/usr/libexec/kubernetes/kubelet-plugins/volume/exec/',
      },
    },
    PodGCController: { TerminatedPodGCThreshold: 12500 },
    ReplicaSetController: { ConcurrentRSSyncs: 5 },
    ReplicationController: { ConcurrentRCSyncs: 5 },
    ResourceQuotaController: { ResourceQuotaSyncPeriod: '5m0s', ConcurrentResourceQuotaSyncs: 5 },
    SAController: { ServiceAccountKeyFile: '', ConcurrentSATokenSyncs: 5, RootCAFile: '' },
    ServiceController: { ConcurrentServiceSyncs: 1 },
    TTLAfterFinishedController: { ConcurrentTTLSyncs: 5 },
    ValidatingAdmissionPolicyStatusController: { ConcurrentPolicySyncs: 5 },
  };
}

/** `SetDefaults_CloudControllerManagerConfiguration` with the cloud controller manager's port and Lease. */
export function defaultCloudControllerManagerConfiguration(domain: ApiDomain): CloudControllerManagerConfiguration {
  return {
    apiVersion: configNames(domain).cloudApiVersion,
    kind: CLOUD_KIND,
    Generic: defaultGenericConfiguration(domain, {
      port: CLOUD_CONTROLLER_MANAGER_PORT,
      leaseName: CLOUD_CONTROLLER_MANAGER_NAME,
    }),
    OrchCloudShared: defaultCloudSharedConfiguration(domain),
    NodeController: { ConcurrentNodeSyncs: 1 },
    ServiceController: { ConcurrentServiceSyncs: 1 },
    NodeStatusUpdateFrequency: '5m0s',
    Webhook: { Webhooks: [] },
  };
}

import { BOOL, DURATION, FLOAT32, FLOAT64, INT32, list, type Shape, STRING, struct } from './strict-shape.js';

/**
 * The Go shapes of the configuration kinds in their internal spelling (see `config-names.ts` for
 * the wire names of the `k8s.io` profile). Go type names are kube's, for its error messages.
 */

const typeMeta = { apiVersion: STRING, kind: STRING };

const controllerLeader = struct('ControllerLeaderConfiguration', { name: STRING, component: STRING });

/** LeaderMigrationConfiguration v1alpha1/v1beta1 (v1 has no `resourceLock`). */
export const LEADER_MIGRATION_SHAPE = struct('LeaderMigrationConfiguration', {
  ...typeMeta,
  leaderName: STRING,
  resourceLock: STRING,
  controllerLeaders: list('[]ControllerLeaderConfiguration', controllerLeader),
});

export const LEADER_MIGRATION_V1_SHAPE = struct('LeaderMigrationConfiguration', {
  ...typeMeta,
  leaderName: STRING,
  controllerLeaders: list('[]ControllerLeaderConfiguration', controllerLeader),
});

const generic = struct('GenericControllerManagerConfiguration', {
  Port: INT32,
  Address: STRING,
  MinResyncPeriod: DURATION,
  ClientConnection: struct('ClientConnectionConfiguration', {
    orchconfig: STRING,
    acceptContentTypes: STRING,
    contentType: STRING,
    qps: FLOAT32,
    burst: INT32,
  }),
  ControllerStartInterval: DURATION,
  LeaderElection: struct('LeaderElectionConfiguration', {
    leaderElect: BOOL,
    leaseDuration: DURATION,
    renewDeadline: DURATION,
    retryPeriod: DURATION,
    resourceLock: STRING,
    resourceName: STRING,
    resourceNamespace: STRING,
  }),
  Controllers: list('[]string', STRING),
  Debugging: struct('DebuggingConfiguration', { enableProfiling: BOOL, enableContentionProfiling: BOOL }),
  LeaderMigrationEnabled: BOOL,
  LeaderMigration: LEADER_MIGRATION_SHAPE,
});

const cloudShared = struct('OrchCloudSharedConfiguration', {
  CloudProvider: struct('CloudProviderConfiguration', { Name: STRING, CloudConfigFile: STRING }),
  ExternalCloudVolumePlugin: STRING,
  UseServiceAccountCredentials: BOOL,
  AllowUntaggedCloud: BOOL,
  RouteReconciliationPeriod: DURATION,
  NodeMonitorPeriod: DURATION,
  ClusterName: STRING,
  ClusterCIDR: STRING,
  AllocateNodeCIDRs: BOOL,
  CIDRAllocatorType: STRING,
  ConfigureCloudRoutes: BOOL,
  NodeSyncPeriod: DURATION,
});

const csrSigning = struct('CSRSigningConfiguration', { CertFile: STRING, KeyFile: STRING });

/** A struct of int32 members only. */
const ints = (goType: string, ...names: string[]) => struct(goType, Object.fromEntries(names.map((n) => [n, INT32])));

const serviceController = ints('ServiceControllerConfiguration', 'ConcurrentServiceSyncs');

export const CONTROLLER_MANAGER_SHAPE: Shape = struct('OrchControllerManagerConfiguration', {
  ...typeMeta,
  Generic: generic,
  OrchCloudShared: cloudShared,
  AttachDetachController: struct('AttachDetachControllerConfiguration', {
    DisableAttachDetachReconcilerSync: BOOL,
    ReconcilerSyncLoopPeriod: DURATION,
    disableForceDetachOnTimeout: BOOL,
  }),
  CSRSigningController: struct('CSRSigningControllerConfiguration', {
    ClusterSigningCertFile: STRING,
    ClusterSigningKeyFile: STRING,
    NodeAgentServingSignerConfiguration: csrSigning,
    NodeAgentClientSignerConfiguration: csrSigning,
    OrchAPIServerClientSignerConfiguration: csrSigning,
    LegacyUnknownSignerConfiguration: csrSigning,
    ClusterSigningDuration: DURATION,
  }),
  DaemonSetController: ints('DaemonSetControllerConfiguration', 'ConcurrentDaemonSetSyncs'),
  DeploymentController: ints('DeploymentControllerConfiguration', 'ConcurrentDeploymentSyncs'),
  StatefulSetController: ints('StatefulSetControllerConfiguration', 'ConcurrentStatefulSetSyncs'),
  DeprecatedController: struct('DeprecatedControllerConfiguration', {}),
  EndpointController: struct('EndpointControllerConfiguration', {
    ConcurrentEndpointSyncs: INT32,
    EndpointUpdatesBatchPeriod: DURATION,
  }),
  EndpointSliceController: struct('EndpointSliceControllerConfiguration', {
    ConcurrentServiceEndpointSyncs: INT32,
    MaxEndpointsPerSlice: INT32,
    EndpointUpdatesBatchPeriod: DURATION,
  }),
  EndpointSliceMirroringController: struct('EndpointSliceMirroringControllerConfiguration', {
    MirroringConcurrentServiceEndpointSyncs: INT32,
    MirroringMaxEndpointsPerSubset: INT32,
    MirroringEndpointUpdatesBatchPeriod: DURATION,
  }),
  EphemeralVolumeController: ints('EphemeralVolumeControllerConfiguration', 'ConcurrentEphemeralVolumeSyncs'),
  GarbageCollectorController: struct('GarbageCollectorControllerConfiguration', {
    EnableGarbageCollector: BOOL,
    ConcurrentGCSyncs: INT32,
    GCIgnoredResources: list('[]GroupResource', struct('GroupResource', { Group: STRING, Resource: STRING })),
  }),
  HPAController: struct('HPAControllerConfiguration', {
    ConcurrentHorizontalPodAutoscalerSyncs: INT32,
    HorizontalPodAutoscalerSyncPeriod: DURATION,
    HorizontalPodAutoscalerDownscaleStabilizationWindow: DURATION,
    HorizontalPodAutoscalerTolerance: FLOAT64,
    HorizontalPodAutoscalerCPUInitializationPeriod: DURATION,
    HorizontalPodAutoscalerInitialReadinessDelay: DURATION,
  }),
  JobController: ints('JobControllerConfiguration', 'ConcurrentJobSyncs'),
  CronJobController: ints('CronJobControllerConfiguration', 'ConcurrentCronJobSyncs'),
  LegacySATokenCleaner: struct('LegacySATokenCleanerConfiguration', { CleanUpPeriod: DURATION }),
  NamespaceController: struct('NamespaceControllerConfiguration', {
    NamespaceSyncPeriod: DURATION,
    ConcurrentNamespaceSyncs: INT32,
  }),
  NodeIPAMController: struct('NodeIPAMControllerConfiguration', {
    ServiceCIDR: STRING,
    SecondaryServiceCIDR: STRING,
    NodeCIDRMaskSize: INT32,
    NodeCIDRMaskSizeIPv4: INT32,
    NodeCIDRMaskSizeIPv6: INT32,
  }),
  NodeLifecycleController: struct('NodeLifecycleControllerConfiguration', {
    NodeEvictionRate: FLOAT32,
    SecondaryNodeEvictionRate: FLOAT32,
    NodeStartupGracePeriod: DURATION,
    NodeMonitorGracePeriod: DURATION,
    PodEvictionTimeout: DURATION,
    LargeClusterSizeThreshold: INT32,
    UnhealthyZoneThreshold: FLOAT32,
  }),
  PersistentVolumeBinderController: struct('PersistentVolumeBinderControllerConfiguration', {
    PVClaimBinderSyncPeriod: DURATION,
    VolumeConfiguration: struct('VolumeConfiguration', {
      EnableHostPathProvisioning: BOOL,
      EnableDynamicProvisioning: BOOL,
      PersistentVolumeRecyclerConfiguration: struct('PersistentVolumeRecyclerConfiguration', {
        MaximumRetry: INT32,
        MinimumTimeoutNFS: INT32,
        PodTemplateFilePathNFS: STRING,
        IncrementTimeoutNFS: INT32,
        PodTemplateFilePathHostPath: STRING,
        MinimumTimeoutHostPath: INT32,
        IncrementTimeoutHostPath: INT32,
      }),
      FlexVolumePluginDir: STRING,
    }),
  }),
  PodGCController: ints('PodGCControllerConfiguration', 'TerminatedPodGCThreshold'),
  ReplicaSetController: ints('ReplicaSetControllerConfiguration', 'ConcurrentRSSyncs'),
  ReplicationController: ints('ReplicationControllerConfiguration', 'ConcurrentRCSyncs'),
  ResourceQuotaController: struct('ResourceQuotaControllerConfiguration', {
    ResourceQuotaSyncPeriod: DURATION,
    ConcurrentResourceQuotaSyncs: INT32,
  }),
  SAController: struct('SAControllerConfiguration', {
    ServiceAccountKeyFile: STRING,
    ConcurrentSATokenSyncs: INT32,
    RootCAFile: STRING,
  }),
  ServiceController: serviceController,
  TTLAfterFinishedController: ints('TTLAfterFinishedControllerConfiguration', 'ConcurrentTTLSyncs'),
  ValidatingAdmissionPolicyStatusController: ints(
    'ValidatingAdmissionPolicyStatusControllerConfiguration',
    'ConcurrentPolicySyncs',
  ),
});

export const CLOUD_CONTROLLER_MANAGER_SHAPE: Shape = struct('CloudControllerManagerConfiguration', {
  ...typeMeta,
  Generic: generic,
  OrchCloudShared: cloudShared,
  NodeController: ints('NodeControllerConfiguration', 'ConcurrentNodeSyncs'),
  ServiceController: serviceController,
  NodeStatusUpdateFrequency: DURATION,
  Webhook: struct('WebhookConfiguration', { Webhooks: list('[]string', STRING) }),
});

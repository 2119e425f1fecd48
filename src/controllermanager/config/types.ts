import type { LeaderElectionConfiguration } from '../../client/leaderelection/leader-election-configuration.js';

/**
 * The controller manager's versioned configuration kinds (`v1alpha1`), member for member as
 * kube-controller-manager v1.32 and the cloud controller manager name them. Members are spelled
 * as the `orch.io` profile serializes them; under `k8s.io` five names take kube's form on the
 * wire (see `config-names.ts`): `KubeCloudShared`, `kubeconfig`, `Kubelet…SignerConfiguration`,
 * `KubeAPIServerClientSignerConfiguration`. In a decoded configuration every member is present
 * (defaults applied).
 */

/** A `meta/v1.Duration` as serialized: a Go duration text, normalized to Go's `String()` (`5m0s`). */
export type Duration = string;

export type { LeaderElectionConfiguration };

/** component-base's `ClientConnectionConfiguration`. */
export interface ClientConnectionConfiguration {
  /** Path of the client configuration file (`kubeconfig` under `k8s.io`). */
  readonly orchconfig: string;
  /** Overrides the default `application/json` Accept header. */
  readonly acceptContentTypes: string;
  readonly contentType: string;
  /** float32. */
  readonly qps: number;
  /** int32. */
  readonly burst: number;
}

export interface DebuggingConfiguration {
  readonly enableProfiling: boolean;
  /** Effective only with `enableProfiling`. */
  readonly enableContentionProfiling: boolean;
}

export interface ControllerLeaderConfiguration {
  /** The controller being migrated. */
  readonly name: string;
  /** The component that runs it, or `*` for any component taking part in the migration. */
  readonly component: string;
}

export interface LeaderMigrationConfiguration {
  /** The name of the Lease protecting the migration. */
  readonly leaderName: string;
  /** `leases` (kube also names `endpoints`; see `leader-migration-config.ts`). */
  readonly resourceLock: string;
  readonly controllerLeaders: readonly ControllerLeaderConfiguration[];
}

export interface GenericControllerManagerConfiguration {
  /** int32: the secure port of `/healthz`, `/metrics`, `/debug/pprof`; 0 turns serving off. */
  readonly Port: number;
  /** IP to serve on; `0.0.0.0` means all interfaces. */
  readonly Address: string;
  /** Reflector resync: random between this and twice this. */
  readonly MinResyncPeriod: Duration;
  readonly ClientConnection: ClientConnectionConfiguration;
  readonly ControllerStartInterval: Duration;
  readonly LeaderElection: LeaderElectionConfiguration;
  /** `*` = all default-enabled, `foo` enables, `-foo` disables; the first item per name wins. */
  readonly Controllers: readonly string[];
  readonly Debugging: DebuggingConfiguration;
  readonly LeaderMigrationEnabled: boolean;
  readonly LeaderMigration: LeaderMigrationConfiguration;
}

export interface CloudProviderConfiguration {
  readonly Name: string;
  readonly CloudConfigFile: string;
}

/** `KubeCloudSharedConfiguration` under `k8s.io`. */
export interface OrchCloudSharedConfiguration {
  readonly CloudProvider: CloudProviderConfiguration;
  readonly ExternalCloudVolumePlugin: string;
  readonly UseServiceAccountCredentials: boolean;
  readonly AllowUntaggedCloud: boolean;
  readonly RouteReconciliationPeriod: Duration;
  readonly NodeMonitorPeriod: Duration;
  readonly ClusterName: string;
  readonly ClusterCIDR: string;
  readonly AllocateNodeCIDRs: boolean;
  readonly CIDRAllocatorType: string;
  readonly ConfigureCloudRoutes: boolean;
  readonly NodeSyncPeriod: Duration;
}

export interface AttachDetachControllerConfiguration {
  readonly DisableAttachDetachReconcilerSync: boolean;
  readonly ReconcilerSyncLoopPeriod: Duration;
  readonly disableForceDetachOnTimeout: boolean;
}

export interface CSRSigningConfiguration {
  readonly CertFile: string;
  readonly KeyFile: string;
}

export interface CSRSigningControllerConfiguration {
  readonly ClusterSigningCertFile: string;
  readonly ClusterSigningKeyFile: string;
  readonly NodeAgentServingSignerConfiguration: CSRSigningConfiguration;
  readonly NodeAgentClientSignerConfiguration: CSRSigningConfiguration;
  readonly OrchAPIServerClientSignerConfiguration: CSRSigningConfiguration;
  readonly LegacyUnknownSignerConfiguration: CSRSigningConfiguration;
  readonly ClusterSigningDuration: Duration;
}

export interface GroupResource {
  readonly Group: string;
  readonly Resource: string;
}

export interface PersistentVolumeRecyclerConfiguration {
  readonly MaximumRetry: number;
  readonly MinimumTimeoutNFS: number;
  readonly PodTemplateFilePathNFS: string;
  readonly IncrementTimeoutNFS: number;
  readonly PodTemplateFilePathHostPath: string;
  readonly MinimumTimeoutHostPath: number;
  readonly IncrementTimeoutHostPath: number;
}

export interface VolumeConfiguration {
  readonly EnableHostPathProvisioning: boolean;
  readonly EnableDynamicProvisioning: boolean;
  readonly PersistentVolumeRecyclerConfiguration: PersistentVolumeRecyclerConfiguration;
  readonly FlexVolumePluginDir: string;
}

/** Every per-controller member of {@link OrchControllerManagerConfiguration}. Numbers are int32 unless noted. */
export interface OrchControllerMembers {
  readonly AttachDetachController: AttachDetachControllerConfiguration;
  readonly CSRSigningController: CSRSigningControllerConfiguration;
  readonly DaemonSetController: { readonly ConcurrentDaemonSetSyncs: number };
  readonly DeploymentController: { readonly ConcurrentDeploymentSyncs: number };
  readonly StatefulSetController: { readonly ConcurrentStatefulSetSyncs: number };
  readonly DeprecatedController: Readonly<Record<string, never>>;
  readonly EndpointController: {
    readonly ConcurrentEndpointSyncs: number;
    readonly EndpointUpdatesBatchPeriod: Duration;
  };
  readonly EndpointSliceController: {
    readonly ConcurrentServiceEndpointSyncs: number;
    readonly MaxEndpointsPerSlice: number;
    readonly EndpointUpdatesBatchPeriod: Duration;
  };
  readonly EndpointSliceMirroringController: {
    readonly MirroringConcurrentServiceEndpointSyncs: number;
    readonly MirroringMaxEndpointsPerSubset: number;
    readonly MirroringEndpointUpdatesBatchPeriod: Duration;
  };
  readonly EphemeralVolumeController: { readonly ConcurrentEphemeralVolumeSyncs: number };
  readonly GarbageCollectorController: {
    readonly EnableGarbageCollector: boolean;
    readonly ConcurrentGCSyncs: number;
    readonly GCIgnoredResources: readonly GroupResource[];
  };
  readonly HPAController: {
    readonly ConcurrentHorizontalPodAutoscalerSyncs: number;
    readonly HorizontalPodAutoscalerSyncPeriod: Duration;
    readonly HorizontalPodAutoscalerDownscaleStabilizationWindow: Duration;
    /** float64. */
    readonly HorizontalPodAutoscalerTolerance: number;
    readonly HorizontalPodAutoscalerCPUInitializationPeriod: Duration;
    readonly HorizontalPodAutoscalerInitialReadinessDelay: Duration;
  };
  readonly JobController: { readonly ConcurrentJobSyncs: number };
  readonly CronJobController: { readonly ConcurrentCronJobSyncs: number };
  readonly LegacySATokenCleaner: { readonly CleanUpPeriod: Duration };
  readonly NamespaceController: { readonly NamespaceSyncPeriod: Duration; readonly ConcurrentNamespaceSyncs: number };
  readonly NodeIPAMController: {
    readonly ServiceCIDR: string;
    readonly SecondaryServiceCIDR: string;
    readonly NodeCIDRMaskSize: number;
    readonly NodeCIDRMaskSizeIPv4: number;
    readonly NodeCIDRMaskSizeIPv6: number;
  };
  readonly NodeLifecycleController: {
    /** float32. */
    readonly NodeEvictionRate: number;
    /** float32. */
    readonly SecondaryNodeEvictionRate: number;
    readonly NodeStartupGracePeriod: Duration;
    readonly NodeMonitorGracePeriod: Duration;
    readonly PodEvictionTimeout: Duration;
    readonly LargeClusterSizeThreshold: number;
    /** float32. */
    readonly UnhealthyZoneThreshold: number;
  };
  readonly PersistentVolumeBinderController: {
    readonly PVClaimBinderSyncPeriod: Duration;
    readonly VolumeConfiguration: VolumeConfiguration;
  };
  readonly PodGCController: { readonly TerminatedPodGCThreshold: number };
  readonly ReplicaSetController: { readonly ConcurrentRSSyncs: number };
  readonly ReplicationController: { readonly ConcurrentRCSyncs: number };
  readonly ResourceQuotaController: {
    readonly ResourceQuotaSyncPeriod: Duration;
    readonly ConcurrentResourceQuotaSyncs: number;
  };
  readonly SAController: {
    readonly ServiceAccountKeyFile: string;
    readonly ConcurrentSATokenSyncs: number;
    readonly RootCAFile: string;
  };
  readonly ServiceController: { readonly ConcurrentServiceSyncs: number };
  readonly TTLAfterFinishedController: { readonly ConcurrentTTLSyncs: number };
  readonly ValidatingAdmissionPolicyStatusController: { readonly ConcurrentPolicySyncs: number };
}

/** `orchcontrollermanager.config.<domain>/v1alpha1` (`KubeControllerManagerConfiguration` under `k8s.io`). */
export interface OrchControllerManagerConfiguration extends OrchControllerMembers {
  readonly apiVersion: string;
  readonly kind: string;
  readonly Generic: GenericControllerManagerConfiguration;
  readonly OrchCloudShared: OrchCloudSharedConfiguration;
}

/** `cloudcontrollermanager.config.<domain>/v1alpha1`. */
export interface CloudControllerManagerConfiguration {
  readonly apiVersion: string;
  readonly kind: string;
  readonly Generic: GenericControllerManagerConfiguration;
  readonly OrchCloudShared: OrchCloudSharedConfiguration;
  readonly NodeController: { readonly ConcurrentNodeSyncs: number };
  readonly ServiceController: { readonly ConcurrentServiceSyncs: number };
  readonly NodeStatusUpdateFrequency: Duration;
  readonly Webhook: { readonly Webhooks: readonly string[] };
}

/** A configuration problem; `problems` lists every one (`<field path>: <message>`). */
export class ControllerManagerConfigError extends Error {
  constructor(readonly problems: readonly string[]) {
    super(problems.length === 1 ? problems[0] : `[${problems.join(', ')}]`);
    this.name = 'ControllerManagerConfigError';
  }
}

import { ORCH_DOMAIN } from '../../apis/api-domain.js';
import { defaultControllerManagerConfiguration } from '../../controllermanager/config/defaults.js';
import { goQuote } from '../../util/go-strconv.js';
import { clientApiDomainFlag } from './client-api-domain-flag.js';
import type { FlagSpec } from './flag-spec.js';
import { boolFlag, customFlag, durationFlag, intFlag, ipFlag, stringFlag, stringListFlag } from './flag-spec.js';
import { formatGoDuration, isParseError, parseGoDuration, parseGoInt } from './go-values.js';
import { leaderElectionFlagTable } from './leader-election-flags.js';

/**
 * kube-controller-manager v1.32's flags for the members Orch's controller manager reads (same
 * names, help and defaults), plus `--config`, `--write-config-to` and `--api-domain`. Each
 * configuration flag names the member it overrides (`member`): a flag given on the command line
 * replaces the file's value; one not given leaves it.
 */

/** Where a flag's value goes in OrchControllerManagerConfiguration, and how it is written there. */
export interface MemberFlag<T> {
  readonly spec: FlagSpec<T>;
  /** Path of the member (`['DeploymentController', 'ConcurrentDeploymentSyncs']`). */
  readonly member: readonly string[];
  /** The member's value for a flag value; default: the value itself. */
  readonly toMember?: (value: T) => unknown;
}

/** The member value of a flag: duration flags hold ms, their members Go's text (`5m0s`). */
export function memberValue<T>(flag: MemberFlag<T>, value: T): unknown {
  if (flag.toMember) return flag.toMember(value);
  return flag.spec.typeName === 'duration' ? formatGoDuration(value as number) : value;
}

const INT32_MIN = -(2 ** 31);
const INT32_MAX = 2 ** 31 - 1;

/** pflag's `Int32Var`: `strconv.ParseInt(s, 0, 32)`. */
function int32Flag(o: { name: string; usage: string; default: number; section: string }): FlagSpec<number> {
  return customFlag({
    ...o,
    typeName: 'int32',
    parse: (raw) => {
      const n = parseGoInt(raw);
      if (isParseError(n)) throw new Error(n.error);
      if (n < INT32_MIN || n > INT32_MAX)
        throw new Error(`strconv.ParseInt: parsing ${goQuote(raw)}: value out of range`);
      return n;
    },
    formatDefault: (v) => (v === 0 ? '' : String(v)),
  });
}

/** pflag's `Float32Var`: `strconv.ParseFloat(s, 32)`. */
function float32Flag(o: { name: string; usage: string; default: number; section: string }): FlagSpec<number> {
  return customFlag({
    ...o,
    typeName: 'float32',
    parse: (raw) => {
      const t = raw.replaceAll('_', '');
      if (!/^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$|^[+-]?(inf|infinity|nan)$/i.test(t)) {
        throw new Error(`strconv.ParseFloat: parsing ${goQuote(raw)}: invalid syntax`);
      }
      const n = Number(t);
      if (Math.abs(n) > 3.4028234663852886e38 && Number.isFinite(n)) {
        throw new Error(`strconv.ParseFloat: parsing ${goQuote(raw)}: value out of range`);
      }
      return n;
    },
    formatDefault: (v) => (v === 0 ? '' : String(v)),
  });
}

const GENERIC = 'Generic';
const DEBUGGING = 'Debugging';
const MIGRATION = 'Leader-migration';
const SERVING = 'Secure serving';

/** The flags that override configuration members, with kube's defaults as help shows them. */
export function memberFlags() {
  const d = defaultControllerManagerConfiguration(ORCH_DOMAIN);
  const ms = (s: string) => parseGoDuration(s) as number;
  const int32 = (name: string, section: string, def: number, usage: string) =>
    int32Flag({ name, section, default: def, usage });
  const duration = (name: string, section: string, def: string, usage: string) =>
    durationFlag({ name, section, default: ms(def), usage });
  const le = leaderElectionFlagTable();
  const flags = {
    controllers: {
      spec: stringListFlag({
        name: 'controllers',
        section: GENERIC,
        default: ['*'],
        usage:
          "A list of controllers to enable. '*' enables all on-by-default controllers, 'foo' enables the controller named 'foo', '-foo' disables the controller named 'foo'.",
      }),
      member: [GENERIC, 'Controllers'],
    },
    minResyncPeriod: {
      spec: duration(
        'min-resync-period',
        GENERIC,
        d.Generic.MinResyncPeriod,
        'The resync period in reflectors will be random between MinResyncPeriod and 2*MinResyncPeriod.',
      ),
      member: [GENERIC, 'MinResyncPeriod'],
    },
    controllerStartInterval: {
      spec: duration('controller-start-interval', GENERIC, '0s', 'Interval between starting controller managers.'),
      member: [GENERIC, 'ControllerStartInterval'],
    },
    kubeApiContentType: {
      spec: stringFlag({
        name: 'kube-api-content-type',
        section: GENERIC,
        default: d.Generic.ClientConnection.contentType,
        usage: 'Content type of requests sent to apiserver.',
      }),
      member: [GENERIC, 'ClientConnection', 'contentType'],
    },
    kubeApiQps: {
      spec: float32Flag({
        name: 'kube-api-qps',
        section: GENERIC,
        default: 20,
        usage: 'QPS to use while talking with kubernetes apiserver.',
      }),
      member: [GENERIC, 'ClientConnection', 'qps'],
    },
    kubeApiBurst: {
      spec: int32('kube-api-burst', GENERIC, 30, 'Burst to use while talking with kubernetes apiserver.'),
      member: [GENERIC, 'ClientConnection', 'burst'],
    },
    kubeconfig: {
      spec: stringFlag({
        name: 'kubeconfig',
        section: 'Misc',
        usage:
          'Path to kubeconfig file with authorization and master location information (the configuration file written by orch-apiserver).',
      }),
      member: [GENERIC, 'ClientConnection', 'orchconfig'],
    },
    leaderElect: { spec: le.leaderElect, member: [GENERIC, 'LeaderElection', 'leaderElect'] },
    leaderElectLeaseDuration: {
      spec: le.leaderElectLeaseDuration,
      member: [GENERIC, 'LeaderElection', 'leaseDuration'],
    },
    leaderElectRenewDeadline: {
      spec: le.leaderElectRenewDeadline,
      member: [GENERIC, 'LeaderElection', 'renewDeadline'],
    },
    leaderElectRetryPeriod: { spec: le.leaderElectRetryPeriod, member: [GENERIC, 'LeaderElection', 'retryPeriod'] },
    leaderElectResourceLock: { spec: le.leaderElectResourceLock, member: [GENERIC, 'LeaderElection', 'resourceLock'] },
    leaderElectResourceName: { spec: le.leaderElectResourceName, member: [GENERIC, 'LeaderElection', 'resourceName'] },
    leaderElectResourceNamespace: {
      spec: le.leaderElectResourceNamespace,
      member: [GENERIC, 'LeaderElection', 'resourceNamespace'],
    },
    profiling: {
      spec: boolFlag({
        name: 'profiling',
        section: DEBUGGING,
        default: true,
        usage: 'Enable profiling via web interface host:port/debug/pprof/',
      }),
      member: [GENERIC, 'Debugging', 'enableProfiling'],
    },
    contentionProfiling: {
      spec: boolFlag({
        name: 'contention-profiling',
        section: DEBUGGING,
        usage: 'Enable block profiling, if profiling is enabled',
      }),
      member: [GENERIC, 'Debugging', 'enableContentionProfiling'],
    },
    enableLeaderMigration: {
      spec: boolFlag({
        name: 'enable-leader-migration',
        section: MIGRATION,
        usage: 'Whether to enable controller leader migration.',
      }),
      member: [GENERIC, 'LeaderMigrationEnabled'],
    },
    securePort: {
      spec: intFlag({
        name: 'secure-port',
        section: SERVING,
        default: d.Generic.Port,
        usage:
          "The port on which to serve HTTPS with authentication and authorization. If 0, don't serve HTTPS at all.",
      }),
      member: [GENERIC, 'Port'],
    },
    bindAddress: {
      spec: ipFlag({
        name: 'bind-address',
        section: SERVING,
        default: d.Generic.Address,
        usage:
          'The IP address on which to listen for the --secure-port port. The associated interface(s) must be reachable by the rest of the cluster, and by CLI/web clients. If blank or an unspecified address (0.0.0.0 or ::), all interfaces and IP address families will be used.',
      }),
      member: [GENERIC, 'Address'],
    },
    useServiceAccountCredentials: {
      spec: boolFlag({
        name: 'use-service-account-credentials',
        section: GENERIC,
        usage: 'If true, use individual service account credentials for each controller.',
      }),
      member: ['OrchCloudShared', 'UseServiceAccountCredentials'],
    },
    concurrentDeploymentSyncs: {
      spec: int32(
        'concurrent-deployment-syncs',
        'Deployment controller',
        5,
        'The number of deployment objects that are allowed to sync concurrently. Larger number = more responsive deployments, but more CPU (and network) load',
      ),
      member: ['DeploymentController', 'ConcurrentDeploymentSyncs'],
    },
    concurrentReplicasetSyncs: {
      spec: int32(
        'concurrent-replicaset-syncs',
        'Replicaset controller',
        5,
        'The number of replica sets that are allowed to sync concurrently. Larger number = more responsive replica management, but more CPU (and network) load',
      ),
      member: ['ReplicaSetController', 'ConcurrentRSSyncs'],
    },
    concurrentJobSyncs: {
      spec: int32(
        'concurrent-job-syncs',
        'Job controller',
        5,
        'The number of job objects that are allowed to sync concurrently. Larger number = more responsive jobs, but more CPU (and network) load',
      ),
      member: ['JobController', 'ConcurrentJobSyncs'],
    },
    concurrentCronJobSyncs: {
      spec: int32(
        'concurrent-cron-job-syncs',
        'Cronjob controller',
        5,
        'The number of cron job objects that are allowed to sync concurrently. Larger number = more responsive jobs, but more CPU (and network) load',
      ),
      member: ['CronJobController', 'ConcurrentCronJobSyncs'],
    },
    concurrentTtlAfterFinishedSyncs: {
      spec: int32(
        'concurrent-ttl-after-finished-syncs',
        'Ttl-after-finished controller',
        5,
        'The number of ttl-after-finished-controller workers that are allowed to sync concurrently.',
      ),
      member: ['TTLAfterFinishedController', 'ConcurrentTTLSyncs'],
    },
    concurrentServiceEndpointSyncs: {
      spec: int32(
        'concurrent-service-endpoint-syncs',
        'Endpointslice controller',
        5,
        'The number of service endpoint syncing operations that will be done concurrently. Larger number = faster endpoint slice updating, but more CPU (and network) load. Defaults to 5.',
      ),
      member: ['EndpointSliceController', 'ConcurrentServiceEndpointSyncs'],
    },
    maxEndpointsPerSlice: {
      spec: int32(
        'max-endpoints-per-slice',
        'Endpointslice controller',
        100,
        'The maximum number of endpoints that will be added to an EndpointSlice. More endpoints per slice will result in less endpoint slices, but larger resources. Defaults to 100.',
      ),
      member: ['EndpointSliceController', 'MaxEndpointsPerSlice'],
    },
    endpointsliceUpdatesBatchPeriod: {
      spec: duration(
        'endpointslice-updates-batch-period',
        'Endpointslice controller',
        '0s',
        'The length of endpoint slice updates batching period. Processing of pod changes will be delayed by this duration to join them with potential upcoming updates and reduce the overall number of endpoints updates. Larger number = higher endpoint programming latency, but lower number of endpoints revision generated',
      ),
      member: ['EndpointSliceController', 'EndpointUpdatesBatchPeriod'],
    },
    concurrentGcSyncs: {
      spec: int32(
        'concurrent-gc-syncs',
        'Garbagecollector controller',
        20,
        'The number of garbage collector workers that are allowed to sync concurrently.',
      ),
      member: ['GarbageCollectorController', 'ConcurrentGCSyncs'],
    },
    enableGarbageCollector: {
      spec: boolFlag({
        name: 'enable-garbage-collector',
        section: 'Garbagecollector controller',
        default: true,
        usage:
          'Enables the generic garbage collector. MUST be synced with the corresponding flag of the kube-apiserver.',
      }),
      member: ['GarbageCollectorController', 'EnableGarbageCollector'],
    },
    concurrentNamespaceSyncs: {
      spec: int32(
        'concurrent-namespace-syncs',
        'Namespace controller',
        10,
        'The number of namespace objects that are allowed to sync concurrently. Larger number = more responsive namespace termination, but more CPU (and network) load',
      ),
      member: ['NamespaceController', 'ConcurrentNamespaceSyncs'],
    },
    namespaceSyncPeriod: {
      spec: duration(
        'namespace-sync-period',
        'Namespace controller',
        d.NamespaceController.NamespaceSyncPeriod,
        'The period for syncing namespace life-cycle updates',
      ),
      member: ['NamespaceController', 'NamespaceSyncPeriod'],
    },
    concurrentServiceaccountTokenSyncs: {
      spec: int32(
        'concurrent-serviceaccount-token-syncs',
        'Serviceaccount controller',
        5,
        'The number of service account token objects that are allowed to sync concurrently. Larger number = more responsive token generation, but more CPU (and network) load',
      ),
      member: ['SAController', 'ConcurrentSATokenSyncs'],
    },
    serviceAccountPrivateKeyFile: {
      spec: stringFlag({
        name: 'service-account-private-key-file',
        section: 'Serviceaccount controller',
        usage: 'Filename containing a PEM-encoded private RSA or ECDSA key used to sign service account tokens.',
      }),
      member: ['SAController', 'ServiceAccountKeyFile'],
    },
    rootCaFile: {
      spec: stringFlag({
        name: 'root-ca-file',
        section: 'Serviceaccount controller',
        usage:
          "If set, this root certificate authority will be included in service account's token secret. This must be a valid PEM-encoded CA bundle.",
      }),
      member: ['SAController', 'RootCAFile'],
    },
    legacyServiceAccountTokenCleanUpPeriod: {
      spec: duration(
        'legacy-service-account-token-clean-up-period',
        'Legacy-service-account-token-cleaner controller',
        d.LegacySATokenCleaner.CleanUpPeriod,
        'The period of time since the last usage of an legacy service account token before it can be deleted.',
      ),
      member: ['LegacySATokenCleaner', 'CleanUpPeriod'],
    },
    terminatedPodGcThreshold: {
      spec: int32(
        'terminated-pod-gc-threshold',
        'Podgc controller',
        12500,
        'Number of terminated pods that can exist before the terminated pod garbage collector starts deleting terminated pods. If <= 0, the terminated pod garbage collector is disabled.',
      ),
      member: ['PodGCController', 'TerminatedPodGCThreshold'],
    },
  };
  return flags as { readonly [K in keyof typeof flags]: MemberFlag<FlagValueOf<(typeof flags)[K]['spec']>> };
}

type FlagValueOf<S> = S extends FlagSpec<infer V> ? V : never;

/** Flags that are not configuration members. */
export function commandFlags() {
  return {
    config: stringFlag({
      name: 'config',
      section: 'Misc',
      usage:
        'The path to the configuration file (an OrchControllerManagerConfiguration; YAML or JSON). Flags given on the command line override its values.',
    }),
    writeConfigTo: stringFlag({
      name: 'write-config-to',
      section: 'Misc',
      usage: 'If set, write the effective configuration (the file, defaults and flags) to this file and exit.',
    }),
    master: stringFlag({
      name: 'master',
      section: 'Misc',
      usage: 'The address of the Kubernetes API server (overrides any value in kubeconfig).',
    }),
    apiDomain: clientApiDomainFlag(),
    leaderMigrationConfig: stringFlag({
      name: 'leader-migration-config',
      section: MIGRATION,
      usage:
        'Path to the config file for controller leader migration, or empty to use the value that reflects default configuration of the controller manager. The config file should be of type LeaderMigrationConfiguration, group controllermanager.config.<domain>, version v1alpha1.',
    }),
    certDir: stringFlag({
      name: 'cert-dir',
      section: SERVING,
      usage:
        'The directory where the TLS certs are located. If --tls-cert-file and --tls-private-key-file are provided, this flag will be ignored.',
    }),
    tlsCertFile: stringFlag({
      name: 'tls-cert-file',
      section: SERVING,
      usage:
        'File containing the default x509 Certificate for HTTPS. (CA cert, if any, concatenated after server cert). If HTTPS serving is enabled, and --tls-cert-file and --tls-private-key-file are not provided, a self-signed certificate and key are generated for the public address and saved to the directory specified by --cert-dir.',
    }),
    tlsPrivateKeyFile: stringFlag({
      name: 'tls-private-key-file',
      section: SERVING,
      usage: 'File containing the default x509 private key matching --tls-cert-file.',
    }),
  };
}

import { join } from 'node:path';
import {
  BUILTIN_ADMISSION_PLUGIN_NAMES,
  BUILTIN_ADMISSION_PLUGINS,
  validateAdmissionSelection,
} from '../../admission/index.js';
import { API_DOMAIN_NAMES, type ApiDomain, type ApiDomainName, apiDomain, ORCH_DOMAIN } from '../../apis/api-domain.js';
import { formatPortRange } from '../../apis/core/service-ranges.js';
import type { AuthenticationOptions } from '../../authn/authentication-options.js';
import type { AuthorizationOptions } from '../../authz/authorization-options.js';
import { AUTHORIZATION_MODES } from '../../authz/index.js';
import type { LeaderElectionConfiguration } from '../../client/leaderelection/leader-election-configuration.js';
import { FeatureGateError, RuntimeConfigError } from '../../featuregate/errors.js';
import { type FeatureGates, parseFeatureGateValue } from '../../featuregate/feature-gates.js';
import { type GroupVersionResource, groupVersionRegistry, RuntimeConfig } from '../../featuregate/runtime-config.js';
import { ShowHiddenMetricsError, validateShowHiddenMetricsVersion } from '../../metrics/stability.js';
import { apiLevel } from '../../server/version.js';
import { authenticationFlagTable, authenticationOptionsFromFlags } from './authentication-flags.js';
import { authorizationFlagTable, authorizationOptionsFromFlags } from './authorization-flags.js';
import { FlagParseError, FlagValidationError } from './errors.js';
import { type FlagValues, parseFlags } from './flag-parser.js';
import {
  boolFlag,
  customFlag,
  durationFlag,
  enumFlag,
  intFlag,
  ipFlag,
  keyValueFlag,
  stringFlag,
  stringListFlag,
} from './flag-spec.js';
import { formatHelp } from './flag-usage.js';
import { leaderElectionFlagTable, leaderElectionFromFlags } from './leader-election-flags.js';
import { serviceFlagTable, validateServiceFlags } from './service-flags.js';

/** The admission plugins on by default, as the flags' usage names them. */
const DEFAULT_ON_ADMISSION_PLUGINS = BUILTIN_ADMISSION_PLUGINS.ordered
  .filter((p) => p.defaultOn)
  .map((p) => p.name)
  .join(', ');

export const API_SERVER_COMMAND = 'orch-apiserver';

export type StorageBackend = 'embedded' | 'etcd3';
const STORAGE_BACKENDS: readonly StorageBackend[] = ['embedded', 'etcd3'];

/** Authorization modes kube knows; Orch implements the ones in SUPPORTED_AUTHORIZATION_MODES so far. */
const KNOWN_AUTHORIZATION_MODES = ['AlwaysAllow', 'AlwaysDeny', 'ABAC', 'Webhook', 'RBAC', 'Node'];
const SUPPORTED_AUTHORIZATION_MODES: readonly string[] = AUTHORIZATION_MODES;

/** The validated configuration of `orch-apiserver`. Durations are in milliseconds. */
export interface ApiServerFlags {
  readonly dataDir: string;
  /** `--api-domain`: `orch.io` (default) or `k8s.io`. */
  readonly apiDomain: ApiDomainName;
  readonly bindAddress: string;
  /** 0 picks a free port. */
  readonly securePort: number;
  readonly storageBackend: StorageBackend;
  readonly etcdServers: readonly string[];
  readonly etcdPrefix: string;
  /** 0 disables periodic compaction. */
  readonly etcdCompactionIntervalMs: number;
  /** `<dataDir>/pki` unless given. */
  readonly certDir: string;
  /** Empty: serve a self-signed certificate from `certDir`. */
  readonly tlsCertFile: string;
  readonly tlsPrivateKeyFile: string;
  readonly clientCaFile: string;
  /** Every authentication method beyond client certificates, and anonymous requests. */
  readonly authentication: AuthenticationOptions;
  /** The `--feature-gates` settings as given; they have also been applied to the injected gates. */
  readonly featureGates: Readonly<Record<string, boolean>>;
  readonly runtimeConfig: RuntimeConfig;
  readonly authorizationModes: readonly string[];
  /** `--authorization-policy-file`: the ABAC policies (mode `ABAC`); empty when not given. */
  readonly authorizationPolicyFile: string;
  /** `--authorization-config` and the `--authorization-webhook-*` flags. */
  readonly authorization: AuthorizationOptions;
  readonly enableAdmissionPlugins: readonly string[];
  readonly disableAdmissionPlugins: readonly string[];
  readonly shutdownDelayDurationMs: number;
  readonly livezGracePeriodMs: number;
  /** Run the garbage collector and the namespace controller inside the API server (default true). */
  readonly runControllers: boolean;
  /** `--leader-elect*`: leader election of those controllers (validated). */
  readonly leaderElection: LeaderElectionConfiguration;
  /** Seconds; watches without timeoutSeconds end after a random time in [this, 2×this). */
  readonly minRequestTimeout: number;
  /** `--service-cluster-ip-range` as given (empty: `10.0.0.0/24`); checked. */
  readonly serviceClusterIPRange: string;
  /** `--service-node-port-range`, e.g. `30000-32767`. */
  readonly serviceNodePortRange: string;
  /** `--advertise-address`; empty: derived from the bind address. */
  readonly advertiseAddress: string;
  /** `--show-hidden-metrics-for-version`: empty, or the previous minor version (checked). */
  readonly showHiddenMetricsForVersion: string;
  /** `--audit-policy-file` and `--audit-log-*` (empty path: no auditing). */
  readonly audit: {
    readonly policyFile: string;
    readonly logPath: string;
    readonly logMaxAgeDays: number;
    readonly logMaxBackups: number;
    readonly logMaxSizeMB: number;
  };
}

export type ParsedApiServerCommandLine =
  | { readonly help: true; readonly usage: string }
  | { readonly help: false; readonly flags: ApiServerFlags; readonly warnings: readonly string[] };

export interface ApiServerFlagDeps {
  /** Validates `--feature-gates` as it is read and receives the settings once everything is valid. */
  readonly featureGates: FeatureGates;
  /**
   * The resources the server can serve under an API domain; `--runtime-config` may name only
   * their groups, versions and resources.
   */
  readonly servedResources: (domain: ApiDomainName) => readonly GroupVersionResource[];
}

/** `--api-domain` help: the names of each profile, from the one source of them. */
function apiDomainUsage(): string {
  const names = (d: ApiDomain) =>
    `'${d.name}': ${d.group('coordination')}, ${d.systemNamespace}, ${d.protobufMediaType}, ...`;
  const [orch, kube] = API_DOMAIN_NAMES.map((n) => names(apiDomain(n)));
  return `The domain of API group names and other domain-derived names. ${orch}; ${kube} (kube-apiserver's names, so that unmodified Kubernetes clients reach every API). A data directory keeps the domain it was first started with.`;
}

/** The flag table of `orch-apiserver`; `deps.featureGates` supplies the known features. */
export function apiServerFlagTable(deps: ApiServerFlagDeps) {
  return {
    ...authenticationFlagTable(),
    ...authorizationFlagTable(),
    ...serviceFlagTable(),
    ...leaderElectionFlagTable(),
    dataDir: stringFlag({
      name: 'data-dir',
      default: './.orch',
      usage: 'Directory for the embedded store, generated certificates and other state.',
    }),
    bindAddress: ipFlag({
      name: 'bind-address',
      default: '127.0.0.1',
      section: 'Secure serving',
      usage: 'The IP address on which to listen for the --secure-port port.',
    }),
    securePort: intFlag({
      name: 'secure-port',
      default: 6443,
      section: 'Secure serving',
      usage: 'The port on which to serve HTTPS with authentication and authorization. If 0, a free port is chosen.',
    }),
    certDir: stringFlag({
      name: 'cert-dir',
      section: 'Secure serving',
      defaultText: '"<data-dir>/pki"',
      usage:
        'The directory where the TLS certs are located. If --tls-cert-file and --tls-private-key-file are provided, this flag will be ignored.',
    }),
    tlsCertFile: stringFlag({
      name: 'tls-cert-file',
      section: 'Secure serving',
      usage:
        'File containing the default x509 Certificate for HTTPS (CA cert, if any, concatenated after server cert). If HTTPS serving is enabled, and --tls-cert-file and --tls-private-key-file are not provided, a self-signed certificate and key are generated in --cert-dir.',
    }),
    tlsPrivateKeyFile: stringFlag({
      name: 'tls-private-key-file',
      section: 'Secure serving',
      usage: 'File containing the default x509 private key matching --tls-cert-file.',
    }),
    apiDomain: enumFlag({
      name: 'api-domain',
      values: API_DOMAIN_NAMES,
      default: ORCH_DOMAIN.name,
      section: 'Generic',
      usage: apiDomainUsage(),
    }),
    clientCaFile: stringFlag({
      name: 'client-ca-file',
      section: 'Authentication',
      usage:
        'If set, any request presenting a client certificate signed by one of the authorities in the client-ca-file is authenticated with an identity corresponding to the CommonName of the client certificate.',
    }),
    authorizationModes: stringListFlag({
      name: 'authorization-mode',
      default: ['Node', 'RBAC'],
      section: 'Authorization',
      usage: `Ordered list of plug-ins to do authorization on secure port. Supported so far: ${SUPPORTED_AUTHORIZATION_MODES.join(',')}.`,
    }),
    authorizationPolicyFile: stringFlag({
      name: 'authorization-policy-file',
      section: 'Authorization',
      usage:
        'File with authorization policy in json line by line format, used with --authorization-mode=ABAC, on the secure port.',
    }),
    enableAdmissionPlugins: stringListFlag({
      name: 'enable-admission-plugins',
      section: 'Admission',
      usage: `admission plugins that should be enabled in addition to default enabled ones (${DEFAULT_ON_ADMISSION_PLUGINS}). Comma-delimited list of admission plugins: ${BUILTIN_ADMISSION_PLUGIN_NAMES.join(', ')}. The order of plugins in this flag does not matter.`,
    }),
    disableAdmissionPlugins: stringListFlag({
      name: 'disable-admission-plugins',
      section: 'Admission',
      usage: `admission plugins that should be disabled although they are in the default enabled plugins list (${DEFAULT_ON_ADMISSION_PLUGINS}). Comma-delimited list of admission plugins: ${BUILTIN_ADMISSION_PLUGIN_NAMES.join(', ')}. The order of plugins in this flag does not matter.`,
    }),
    storageBackend: stringFlag({
      name: 'storage-backend',
      default: 'embedded',
      section: 'Etcd',
      usage: "The storage backend for persistence. Options: 'embedded', 'etcd3'.",
    }),
    etcdServers: stringListFlag({
      name: 'etcd-servers',
      section: 'Etcd',
      usage:
        'List of etcd servers to connect with (scheme://ip:port), comma separated. Required with --storage-backend=etcd3.',
    }),
    etcdPrefix: stringFlag({
      name: 'etcd-prefix',
      default: '/registry',
      section: 'Etcd',
      usage: 'The prefix to prepend to all resource paths in etcd.',
    }),
    etcdCompactionIntervalMs: durationFlag({
      name: 'etcd-compaction-interval',
      default: 5 * 60_000,
      section: 'Etcd',
      usage: 'The interval of compaction requests. If 0, the compaction request from apiserver is disabled.',
    }),
    featureGates: customFlag<Readonly<Record<string, boolean>>>({
      name: 'feature-gates',
      typeName: 'mapStringBool',
      default: {},
      section: 'Feature gate',
      usage: `A set of key=value pairs that describe feature gates for alpha/experimental features. Options are:\n${deps.featureGates
        .knownFeatures()
        .join('\n')}`,
      parse: (raw, previous) => {
        const settings = parseFeatureGateValue(raw);
        deps.featureGates.check(settings);
        return { ...previous, ...settings };
      },
    }),
    runtimeConfig: keyValueFlag({
      name: 'runtime-config',
      section: 'API enablement',
      usage: `A set of key=value pairs that enable or disable built-in APIs. Supported options are:\nv1=true|false for the core API group\n<group>/<version>=true|false for a specific API group and version (e.g. ${ORCH_DOMAIN.group('coordination')}/v1=true)\n<group>/<version>/<resource>=true|false for one resource (e.g. /v1/events=false for the core group)\napi/all=true|false controls all API versions\napi/ga=true|false controls all API versions of the form v[0-9]+\napi/beta=true|false controls all API versions of the form v[0-9]+beta[0-9]+\napi/alpha=true|false controls all API versions of the form v[0-9]+alpha[0-9]+\napi/legacy is deprecated, and will be removed in a future version`,
    }),
    shutdownDelayDurationMs: durationFlag({
      name: 'shutdown-delay-duration',
      section: 'Generic',
      usage:
        'Time to delay the termination. During that time the server keeps serving requests normally. The endpoints /healthz and /livez will return success, but /readyz immediately returns failure.',
    }),
    minRequestTimeout: intFlag({
      name: 'min-request-timeout',
      default: 1800,
      section: 'Generic',
      usage:
        'An optional field indicating the minimum number of seconds a handler must keep a request open before timing it out. Currently only honored by the watch request handler, which picks a randomized value above this number as the connection timeout, to spread out load.',
    }),
    runControllers: boolFlag({
      name: 'run-controllers',
      default: true,
      section: 'Generic',
      usage:
        'Run the garbage collector and the namespace controller inside the API server. With false, deleted namespaces stay Terminating and dependents are not garbage collected until a controller manager runs them.',
    }),
    auditPolicyFile: stringFlag({
      name: 'audit-policy-file',
      section: 'Auditing',
      usage: 'Path to the file that defines the audit policy configuration.',
    }),
    auditLogPath: stringFlag({
      name: 'audit-log-path',
      section: 'Auditing',
      usage: "If set, all requests coming to the apiserver will be logged to this file.  '-' means standard out.",
    }),
    auditLogMaxAge: intFlag({
      name: 'audit-log-maxage',
      default: 0,
      section: 'Auditing',
      usage:
        'The maximum number of days to retain old audit log files based on the timestamp encoded in their filename.',
    }),
    auditLogMaxBackup: intFlag({
      name: 'audit-log-maxbackup',
      default: 0,
      section: 'Auditing',
      usage:
        "The maximum number of old audit log files to retain. Setting a value of 0 will mean there's no restriction on the number of files.",
    }),
    auditLogMaxSize: intFlag({
      name: 'audit-log-maxsize',
      default: 0,
      section: 'Auditing',
      usage: 'The maximum size in megabytes of the audit log file before it gets rotated.',
    }),
    showHiddenMetricsForVersion: stringFlag({
      name: 'show-hidden-metrics-for-version',
      section: 'Metrics',
      usage:
        "The previous minor version (e.g. '1.31') whose hidden metrics to show again; any other value is refused. It gives you one release to notice metrics hidden by an upgrade before they are removed.",
    }),
    livezGracePeriodMs: durationFlag({
      name: 'livez-grace-period',
      section: 'Generic',
      usage:
        "This option represents the maximum amount of time it should take for apiserver to complete its startup sequence and become live. From apiserver's start time to when this amount of time has elapsed, /livez will assume that unfinished post-start hooks will complete successfully and therefore return true.",
    }),
  };
}

type ApiServerFlagValues = FlagValues<ReturnType<typeof apiServerFlagTable>>;

/** Help text of `orch-apiserver`. */
export function apiServerUsage(deps: ApiServerFlagDeps): string {
  return formatHelp({
    command: API_SERVER_COMMAND,
    description: 'The Orch API server validates and configures data for the API objects and serves the resource API.',
    table: apiServerFlagTable(deps),
  });
}

/** Cross-flag checks, all reported at once in kube's wording where kube has one. */
function validate(
  v: ApiServerFlagValues,
  deps: ApiServerFlagDeps,
): { problems: string[]; runtimeConfig?: RuntimeConfig } {
  const problems: string[] = [];
  if (v.securePort < 0 || v.securePort > 65535) {
    problems.push(`--secure-port ${v.securePort} must be between 0 and 65535, inclusive. 0 for a free port`);
  }
  if (!(STORAGE_BACKENDS as readonly string[]).includes(v.storageBackend)) {
    problems.push(
      `--storage-backend invalid, allowed values: ${STORAGE_BACKENDS.join(', ')}. If not specified, it will default to 'embedded'`,
    );
  }
  if (v.storageBackend === 'etcd3' && v.etcdServers.length === 0) problems.push('--etcd-servers must be specified');
  if ((v.tlsCertFile === '') !== (v.tlsPrivateKeyFile === '')) {
    problems.push('--tls-cert-file and --tls-private-key-file must be specified together');
  }
  if (v.authorizationModes.length === 0) problems.push('at least one authorization-mode must be passed');
  const seen = new Set<string>();
  for (const mode of v.authorizationModes) {
    if (!KNOWN_AUTHORIZATION_MODES.includes(mode))
      problems.push(`authorization-mode ${JSON.stringify(mode)} is not a valid mode`);
    else if (!SUPPORTED_AUTHORIZATION_MODES.includes(mode)) {
      problems.push(
        `authorization-mode ${JSON.stringify(mode)} is not supported yet; supported modes: ${SUPPORTED_AUTHORIZATION_MODES.join(',')}`,
      );
    }
    if (seen.has(mode)) problems.push(`authorization-mode ${JSON.stringify(mode)} has mode specified more than once`);
    seen.add(mode);
  }
  // With --authorization-config the file names the authorizers (and ABAC may use the policy file).
  if (seen.has('ABAC') && v.authorizationPolicyFile === '' && v.authorizationConfig === '') {
    problems.push("authorization-mode ABAC's authorization policy file not passed");
  }
  if (v.authorizationPolicyFile !== '' && !seen.has('ABAC') && v.authorizationConfig === '') {
    problems.push('cannot specify --authorization-policy-file without mode ABAC');
  }
  problems.push(
    ...validateAdmissionSelection(BUILTIN_ADMISSION_PLUGINS, {
      enable: v.enableAdmissionPlugins,
      disable: v.disableAdmissionPlugins,
    }),
  );
  if (v.etcdCompactionIntervalMs < 0) problems.push('--etcd-compaction-interval can not be a negative value');
  if (v.shutdownDelayDurationMs < 0) problems.push('--shutdown-delay-duration can not be negative value');
  if (v.livezGracePeriodMs < 0) problems.push('--livez-grace-period can not be a negative value');
  if (v.minRequestTimeout < 0) problems.push('--min-request-timeout can not be a negative value');
  problems.push(...validateServiceFlags(v));
  if (v.auditLogMaxAge < 0) problems.push('--audit-log-maxage can not be a negative value');
  if (v.auditLogMaxBackup < 0) problems.push('--audit-log-maxbackup can not be a negative value');
  if (v.auditLogMaxSize < 0) problems.push('--audit-log-maxsize can not be a negative value');
  try {
    validateShowHiddenMetricsVersion(apiLevel(), v.showHiddenMetricsForVersion);
  } catch (err) {
    if (!(err instanceof ShowHiddenMetricsError)) throw err;
    problems.push(err.message);
  }
  let runtimeConfig: RuntimeConfig | undefined;
  try {
    runtimeConfig = RuntimeConfig.fromEntries(v.runtimeConfig);
    runtimeConfig.validate(groupVersionRegistry(deps.servedResources(v.apiDomain)));
  } catch (err) {
    if (!(err instanceof RuntimeConfigError)) throw err;
    problems.push(...err.problems);
  }
  return { problems, runtimeConfig };
}

/**
 * Parses and validates an `orch-apiserver` command line (without the program name). On success
 * the `--feature-gates` settings are applied to `deps.featureGates`; nothing is applied on error.
 *
 * @returns `{ help: true, usage }` for `--help`/`-h`, else the flags and warnings to log.
 * @throws FlagParseError for unreadable arguments (`unknown flag: --x`, `invalid argument ...`,
 *   positional arguments) and FlagValidationError for invalid values or combinations.
 */
export function parseApiServerCommandLine(
  argv: readonly string[],
  deps: ApiServerFlagDeps,
): ParsedApiServerCommandLine {
  const parsed = parseFlags(apiServerFlagTable(deps), argv);
  if (parsed.help) return { help: true, usage: apiServerUsage(deps) };
  if (parsed.args.some((a) => a.length > 0)) {
    throw new FlagParseError(
      'UnexpectedArguments',
      `${JSON.stringify(API_SERVER_COMMAND)} does not take any arguments, got ${JSON.stringify(parsed.args)}`,
    );
  }
  const v = parsed.values;
  const { problems, runtimeConfig } = validate(v, deps);
  const authentication = authenticationOptionsFromFlags(v, parsed.changed);
  problems.push(...authentication.problems);
  const authorization = authorizationOptionsFromFlags(v, v.authorizationModes, parsed.changed);
  problems.push(...authorization.problems);
  const leaderElection = leaderElectionFromFlags(v, parsed.changed, v.apiDomain);
  problems.push(...leaderElection.problems);
  if (problems.length > 0 || !runtimeConfig || !leaderElection.config) throw new FlagValidationError(problems);
  let warnings: string[];
  try {
    warnings = [...authentication.warnings, ...deps.featureGates.setFromMap(v.featureGates)];
  } catch (err) {
    // Already checked per occurrence; a failure here means the gates changed underneath us.
    if (err instanceof FeatureGateError) throw new FlagValidationError(err.problems, { cause: err });
    throw err;
  }
  return {
    help: false,
    warnings,
    flags: {
      dataDir: v.dataDir,
      apiDomain: v.apiDomain,
      bindAddress: v.bindAddress,
      securePort: v.securePort,
      storageBackend: v.storageBackend as StorageBackend,
      etcdServers: v.etcdServers,
      etcdPrefix: v.etcdPrefix,
      etcdCompactionIntervalMs: v.etcdCompactionIntervalMs,
      certDir: parsed.changed.has('certDir') ? v.certDir : join(v.dataDir, 'pki'),
      tlsCertFile: v.tlsCertFile,
      tlsPrivateKeyFile: v.tlsPrivateKeyFile,
      clientCaFile: v.clientCaFile,
      authentication: authentication.options,
      featureGates: v.featureGates,
      runtimeConfig,
      authorizationModes: v.authorizationModes,
      authorizationPolicyFile: v.authorizationPolicyFile,
      authorization: authorization.options,
      enableAdmissionPlugins: v.enableAdmissionPlugins,
      disableAdmissionPlugins: v.disableAdmissionPlugins,
      shutdownDelayDurationMs: v.shutdownDelayDurationMs,
      livezGracePeriodMs: v.livezGracePeriodMs,
      runControllers: v.runControllers,
      leaderElection: leaderElection.config,
      minRequestTimeout: v.minRequestTimeout,
      serviceClusterIPRange: v.serviceClusterIPRange,
      serviceNodePortRange: formatPortRange(v.serviceNodePortRange),
      advertiseAddress: v.advertiseAddress,
      showHiddenMetricsForVersion: v.showHiddenMetricsForVersion,
      audit: {
        policyFile: v.auditPolicyFile,
        logPath: v.auditLogPath,
        logMaxAgeDays: v.auditLogMaxAge,
        logMaxBackups: v.auditLogMaxBackup,
        logMaxSizeMB: v.auditLogMaxSize,
      },
    },
  };
}

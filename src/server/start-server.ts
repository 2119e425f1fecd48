import { setMaxListeners } from 'node:events';
import { mkdir, readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { Registry } from 'prom-client';
import type { AdmissionPlugin } from '../admission/index.js';
import { type ApiDomain, type ApiDomainName, apiDomain } from '../apis/api-domain.js';
import { scaleSchema } from '../apis/autoscaling/autoscaling-v1-schemas.js';
import { apiErrors } from '../apis/meta/status.js';
import { storageResourceOf } from '../apis/resource-definition.js';
import {
  type AuditBackend,
  AuditPolicyError,
  AuditPolicyEvaluator,
  LogBackend,
  parseAuditPolicy,
} from '../audit/index.js';
import type { AuthenticationOptions } from '../authn/authentication-options.js';
import { type Authentication, buildAuthentication } from '../authn/build-authentication.js';
import { type TokenRequestCreator, tokenRequestCreator } from '../authn/service-account/token-request.js';
import type { AuthorizationOptions } from '../authz/authorization-options.js';
import type { LeaderElectionConfiguration } from '../client/leaderelection/leader-election-configuration.js';
import type { Handler } from '../endpoints/handler.js';
import { errorResponse } from '../endpoints/handlers/response-writer.js';
import { newOrchFeatureGates, OrchFeatures } from '../featuregate/orch-features.js';
import { groupVersionRegistry, RuntimeConfig } from '../featuregate/runtime-config.js';
import { ApiServerMetrics } from '../metrics/apiserver-metrics.js';
import { MetricDefinitions } from '../metrics/stability.js';
import type { ResourceSet } from '../registry/resource-set/index.js';
import { keyScheme } from '../storage/keys.js';
import type { Store } from '../storage/store.js';
import { type Logger, silentLogger } from '../util/logger.js';
import { abacFromFile } from './abac-from-file.js';
import { resolveAdvertiseAddress } from './advertise-address.js';
import { type ApiServer, buildApiServer, DEFAULT_AUTHORIZATION_MODES } from './api-server.js';
import { prepareAuthorization } from './authorization-setup.js';
import { ensureApfConfiguration, ensureSystemPriorityClasses, startApfConfigProducer } from './cluster-bootstrap.js';
import { serveCustomResources } from './custom-resources.js';
import { checkDataDirDomain } from './data-dir-domain.js';
import { exchangeHandler } from './exchange-adapter.js';
import { HealthRegistry } from './health/health-registry.js';
import { startLegacyTokenTracking } from './legacy-token-tracking.js';
import { openStore, type StorageBackend } from './open-store.js';
import { ensureDefaultRbacPolicy } from './rbac-bootstrap.js';
import { controllerLeaderElection, startReplicaControllers } from './replica-controllers.js';
import { resourceSetReader } from './resource-set-reader.js';
import { secretLabelWriter } from './secret-label-writer.js';
import { servedDefinitions } from './served-definitions.js';
import { serviceAccountIssuerDocuments } from './service-account-issuer.js';
import { serviceNetworking } from './service-networking.js';
import { type SecureServer, startSecureServer } from './serving/secure-server.js';
import { ensureCertificates } from './tls/ensure-certificates.js';
import { writeAdminKubeconfig } from './tls/kubeconfig.js';
import { apiLevel } from './version.js';

/** Options of {@link startServer}; they mirror the `orch-apiserver` flags. */
export interface ServerOptions {
  /**
   * `orch.io` (default) or `k8s.io`: the names of groups, namespaces, media types and such. A
   * data directory keeps the domain it was first started with.
   */
  readonly apiDomain?: ApiDomainName;
  /** Default `./.orch`. */
  readonly dataDir?: string;
  /** Default `127.0.0.1`. */
  readonly bindAddress?: string;
  /** Default 6443; 0 picks a free port. */
  readonly securePort?: number;
  readonly storageBackend?: StorageBackend;
  readonly etcdServers?: readonly string[];
  /** Default `/registry`. */
  readonly etcdPrefix?: string;
  /** Compaction interval for every backend; default 5 minutes, 0 disables. */
  readonly etcdCompactionIntervalMs?: number;
  /** Default `<dataDir>/pki`. */
  readonly certDir?: string;
  readonly tlsCertFile?: string;
  readonly tlsPrivateKeyFile?: string;
  readonly clientCaFile?: string;
  /** Authentication methods beyond client certificates, and anonymous requests. */
  readonly authentication?: AuthenticationOptions;
  /** Feature gate settings, e.g. `{ APIResponseCompression: false }`. */
  readonly featureGates?: Readonly<Record<string, boolean>>;
  /** `--runtime-config` value(s); naming anything not served rejects with a `RuntimeConfigError`. */
  readonly runtimeConfig?: string | readonly string[] | RuntimeConfig;
  /** Graceful shutdown: how long `/readyz` fails before the server stops serving. */
  readonly shutdownDelayDurationMs?: number;
  readonly livezGracePeriodMs?: number;
  readonly logger?: Logger;
  /** Use this store instead of opening one (it is not closed by `close()`). */
  readonly store?: Store;
  /** Run the garbage collector and the namespace controller in this process (default true). */
  readonly runControllers?: boolean;
  /**
   * Leader election of the in-process controllers (kube-controller-manager's `--leader-elect*`):
   * on by default, with kube's 15s/10s/2s on the Lease `<system namespace>/<product>-controller-manager`;
   * the fields given replace those defaults. Invalid settings reject with a `LeaderElectionConfigError`.
   */
  readonly leaderElection?: Partial<LeaderElectionConfiguration>;
  /** The host name in this server's identity Lease name (`apiserver-<hash>`); default the machine's. */
  readonly hostname?: string;
  /** Watches without timeoutSeconds end after a random time in [this, 2×this) seconds (default 1800). */
  readonly minRequestTimeoutSeconds?: number;
  /** `--authorization-mode`: modules consulted in order (default `['Node', 'RBAC']`). */
  readonly authorizationModes?: readonly string[];
  /** `--authorization-policy-file`: ABAC policies, one JSON object per line (mode `ABAC` only). */
  readonly authorizationPolicyFile?: string;
  /** `--authorization-config` and the `--authorization-webhook-*` flags. */
  readonly authorization?: AuthorizationOptions;
  /** `--enable-admission-plugins`: turned on beyond the defaults. */
  readonly enableAdmissionPlugins?: readonly string[];
  /** `--disable-admission-plugins`: turned off even when on by default. */
  readonly disableAdmissionPlugins?: readonly string[];
  /** Admission plugins of the embedding program, run after the built-in ones. */
  readonly admissionPlugins?: readonly AdmissionPlugin[];
  /** Registry the server's metrics are registered on and `/metrics` serves (default: a fresh one; never prom-client's global). */
  readonly metrics?: Registry;
  /**
   * `--audit-policy-file` and `--audit-log-*`: requests are audited when both a policy and a log
   * path are given (kube audits nothing without a backend).
   */
  readonly audit?: AuditOptions;
  /** `--show-hidden-metrics-for-version`: the previous minor version (`1.31`) shows metrics hidden in this one. */
  readonly showHiddenMetricsForVersion?: string;
  /** `--service-cluster-ip-range`: one CIDR or a dual-stack pair (default `10.0.0.0/24`). */
  readonly serviceClusterIPRange?: string;
  /** `--service-node-port-range` (default `30000-32767`). */
  readonly serviceNodePortRange?: string;
  /** `--advertise-address`: the address in the `default/kubernetes` endpoints (default: see `resolveAdvertiseAddress`). */
  readonly advertiseAddress?: string;
}

/** A running server. */
export interface RunningServer {
  /** `https://host:port`. */
  readonly url: string;
  /** `<dataDir>/admin.kubeconfig`, when the server generated admin credentials. */
  readonly kubeconfigPath: string | undefined;
  /** CA to verify the server, and the admin client certificate and key (PEM). */
  readonly admin: { readonly ca: string; readonly cert: string; readonly key: string } | undefined;
  readonly store: Store;
  /**
   * The served resources; add and remove definitions while serving (discovery, OpenAPI and the
   * in-process controllers follow).
   */
  readonly resources: ResourceSet;
  /**
   * Graceful stop: `/readyz` fails at once, the server keeps serving for the shutdown delay,
   * then stops accepting, drains in-flight requests and closes the store. Idempotent.
   */
  close(): Promise<void>;
}

const DEFAULT_COMPACTION_INTERVAL_MS = 5 * 60 * 1000;
/** kube's APF configuration producer re-checks the bootstrap objects every minute. */
const APF_ENSURE_INTERVAL_MS = 60 * 1000;
/** How often the legacy token tracking ConfigMap is checked (and put back when deleted). */
const LEGACY_TOKEN_TRACKING_INTERVAL_MS = 60 * 1000;
const NOT_READY = apiErrors.serviceUnavailable('the server is starting');

/**
 * kube-apiserver turns anonymous requests off, with a warning, whenever `AlwaysAllow` is among the
 * authorization modes: everything would be open to anyone who reaches the port.
 */
function anonymousWithAuthorizer(options: ServerOptions, logger: Logger): AuthenticationOptions {
  const authn = options.authentication ?? {};
  const modes = options.authorizationModes ?? DEFAULT_AUTHORIZATION_MODES;
  if (authn.anonymous !== false && modes.includes('AlwaysAllow')) {
    logger.warn(
      'AnonymousAuth is not allowed with the AlwaysAllow authorizer. Resetting AnonymousAuth to false. You should use a different authorizer',
    );
    return { ...authn, anonymousDisabledByAuthorizer: true };
  }
  return authn;
}

/**
 * Starts Orch in this process: opens the store, ensures certificates, builds the registries,
 * creates the system namespaces, and serves HTTPS. Resolves once the server is ready.
 */
export async function startServer(options: ServerOptions = {}): Promise<RunningServer> {
  const logger = options.logger ?? silentLogger;
  const domain = apiDomain(options.apiDomain);
  const dataDir = resolve(options.dataDir ?? '.orch');
  await mkdir(dataDir, { recursive: true, mode: 0o700 });
  await checkDataDirDomain(dataDir, domain.name);
  const gates = newOrchFeatureGates();
  if (options.featureGates) gates.setFromMap(options.featureGates);
  const leaderElection = controllerLeaderElection(domain, options.leaderElection);
  const runtimeConfig =
    options.runtimeConfig instanceof RuntimeConfig
      ? options.runtimeConfig
      : options.runtimeConfig !== undefined
        ? RuntimeConfig.parse(options.runtimeConfig as string | string[])
        : RuntimeConfig.empty();
  // Like the CLI: naming a group, version or resource that is not served fails start-up.
  let authentication: Authentication | undefined;
  let api: ApiServer | undefined;
  let tokenRequests: TokenRequestCreator | undefined;
  const servable = servedDefinitions(
    domain,
    () => {
      if (!authentication || !api) throw new Error('the server is not built yet');
      return {
        authentication,
        authorizer: api.authorizer,
        authorizeWithSelectors: gates.enabled(OrchFeatures.AuthorizeWithSelectors),
        tokenRequests,
        resources: api.resources,
      };
    },
    { coordinatedLeaderElection: gates.enabled(OrchFeatures.CoordinatedLeaderElection) },
  );
  runtimeConfig.validate(groupVersionRegistry(servable));
  // A policy file that does not load stops start-up, naming the file.
  const auditing = await loadAudit(options.audit, domain, logger);
  // Metric definitions check --show-hidden-metrics-for-version before anything is opened.
  const metrics = options.metrics ?? new Registry();
  const metricDefinitions = new MetricDefinitions(metrics, {
    componentVersion: apiLevel(),
    showHiddenForVersion: options.showHiddenMetricsForVersion,
  });
  // A policy file that does not decode fails start-up before anything is opened.
  // With --authorization-config, ABAC is read once the file names it (below).
  const configFile = options.authorization?.configFile ?? '';
  let abac =
    configFile === ''
      ? await abacFromFile(options.authorizationModes ?? ['RBAC'], options.authorizationPolicyFile, { domain, logger })
      : undefined;

  const lifetime = new AbortController();
  // One listener per served resource, informer and controller: many by design, not a leak.
  setMaxListeners(0, lifetime.signal);
  const certs = await ensureCertificates({
    certDir: options.certDir ?? join(dataDir, 'pki'),
    tlsCertFile: options.tlsCertFile || undefined,
    tlsKeyFile: options.tlsPrivateKeyFile || undefined,
    clientCaFile: options.clientCaFile || undefined,
    requestHeaderClientCaFile: options.authentication?.requestHeader?.clientCaFile || undefined,
    signal: lifetime.signal,
  });

  const ownsStore = options.store === undefined;
  const store =
    options.store ??
    (await openStore({
      backend: options.storageBackend ?? 'embedded',
      dataDir,
      etcdServers: options.etcdServers ?? [],
      etcdPrefix: options.etcdPrefix ?? '/registry',
      logger,
    }));

  let listening: SecureServer | undefined;
  try {
    const keys = keyScheme(options.etcdPrefix ?? '/registry');
    const defs = servable.filter(
      (d) =>
        runtimeConfig.isEnabled(d.group, d.version, d.resource) && (!d.featureGate || gates.enabled(d.featureGate)),
    );
    const health = new HealthRegistry({ livezGracePeriodMs: options.livezGracePeriodMs ?? 0, logger });
    health.registerCheck('etcd', async (signal) => {
      await store.currentRevision(signal);
    });
    health.registerPostStartHook('bootstrap-namespaces');
    health.registerPostStartHook('start-compactor');
    health.registerPostStartHook('rbac/bootstrap-roles');
    health.registerPostStartHook('scheduling/bootstrap-system-priority-classes');
    health.registerPostStartHook('priority-and-fairness-config-producer');
    health.registerPostStartHook('start-service-ip-repair-controllers');
    health.registerPostStartHook('bootstrap-controller');
    // --- Service allocations and default/kubernetes (src/server/service-networking.ts) ---
    const networking = serviceNetworking({
      store,
      keys,
      domain,
      logger,
      serviceClusterIPRange: options.serviceClusterIPRange,
      serviceNodePortRange: options.serviceNodePortRange,
    });

    // Listen first: the default service-account issuer is the server's own URL (its port may be
    // chosen by the system). Requests before the pipeline is set just below get a 503.
    let pipeline: Handler | undefined;
    const server = await startSecureServer({
      host: options.bindAddress ?? '127.0.0.1',
      port: options.securePort ?? 6443,
      tls: { cert: certs.cert, key: certs.key, ca: certs.trustedClientCas },
      handler: exchangeHandler(
        (req) => (pipeline ? pipeline(req) : Promise.resolve(errorResponse(req, NOT_READY))),
        logger,
        domain,
      ),
      logger,
    });
    listening = server;
    const serverAddress = new URL(server.url).host;
    let served: ResourceSet | undefined;
    const apiMetrics = new ApiServerMetrics(
      metricDefinitions,
      () => storageObjectCounts(served),
      `system:serviceaccount:${domain.systemNamespace}:default`,
    );
    authentication = await buildAuthentication(anonymousWithAuthorizer(options, logger), {
      domain,
      logger,
      objects: resourceSetReader(() => served),
      secretLabels: secretLabelWriter(() => served, domain),
      lifetime: lifetime.signal,
      metrics,
      featureEnabled: (name) => gates.enabled(name),
      clientCa: certs.clientCa,
      requestHeaderClientCa: certs.requestHeaderClientCa,
      serviceAccountDefaults: { issuer: server.url, servingKeyPem: certs.key },
    });
    const authorization = await prepareAuthorization({
      modes: options.authorizationModes ?? DEFAULT_AUTHORIZATION_MODES,
      options: options.authorization ?? {},
      domain,
      logger,
      metrics,
      lifetime: lifetime.signal,
      featureEnabled: (name) => gates.enabled(name),
    });
    // kube keeps --authorization-policy-file beside --authorization-config for an ABAC entry.
    if (configFile !== '' && authorization.modes.includes('ABAC')) {
      abac = await abacFromFile(authorization.modes, options.authorizationPolicyFile, { domain, logger });
    }
    api = buildApiServer({
      store,
      keys,
      domain,
      gates,
      logger,
      health,
      lifetime: lifetime.signal,
      serverAddress: () => serverAddress,
      authenticator: authentication.authenticator,
      authorizationModes: options.authorizationModes,
      abac,
      authorization,
      enableAdmissionPlugins: options.enableAdmissionPlugins,
      disableAdmissionPlugins: options.disableAdmissionPlugins,
      admissionPlugins: options.admissionPlugins,
      minRequestTimeoutSeconds: options.minRequestTimeoutSeconds,
      serviceAccountIssuer: serviceAccountIssuerDocuments(authentication.serviceAccounts, serverAddress, logger),
      writeHooks: (def) => networking.writeHooksFor(def),
      metrics: apiMetrics,
      metricsRegistry: metrics,
      audit: auditing,
    });
    served = api.resources;
    const sa = authentication.serviceAccounts;
    if (sa) {
      tokenRequests = tokenRequestCreator({
        domain,
        signer: sa.signer,
        objects: resourceSetReader(() => served, { consistent: true }),
        apiAudiences: authentication.apiAudiences,
        maxExpirationSeconds: sa.maxExpirationSeconds,
        extendExpiration: sa.extendExpiration,
      });
    }
    pipeline = api.handler;

    await api.serve(defs, lifetime.signal);
    const resources = served;
    const authorizer = api.authorizer;
    const caughtUp = api.authorizationCaughtUp.bind(api);
    // The bootstrap writes are independent of one another and done by the server itself (not
    // authorized): they run together, the default RBAC policy beside the others, so their commits
    // share the store's write batches. The admin kubeconfig is written meanwhile.
    let customResources: ReturnType<typeof serveCustomResources> | undefined;
    const rbacThenCustomResources = async () => {
      const bootstrap = await ensureDefaultRbacPolicy(resources, domain, { signal: lifetime.signal, logger });
      // The controllers are authorized like any client: they start once the RBAC index holds the
      // default policy just written, or their first requests would be refused.
      await caughtUp(bootstrap.writes, lifetime.signal);
      health.markPostStartHookDone('rbac/bootstrap-roles');
      // --- custom resources (src/server/custom-resources.ts): the CRD controllers and their serving ---
      customResources = serveCustomResources({
        resources,
        domain,
        authorizer,
        logger,
        signal: lifetime.signal,
        scaleSchema,
      });
      await customResources.ready;
    };
    let kubeconfigPath: string | undefined;
    let admin: RunningServer['admin'];
    const writeKubeconfig = async () => {
      if (!certs.admin || !certs.servingCa) return;
      kubeconfigPath = join(dataDir, 'admin.kubeconfig');
      admin = { ca: certs.servingCa, cert: certs.admin.cert, key: certs.admin.key };
      await writeAdminKubeconfig({
        path: kubeconfigPath,
        clusterName: domain.kubeconfigName,
        contextName: domain.kubeconfigName,
        serverUrl: server.url,
        caPem: certs.servingCa,
        clientCertPem: certs.admin.cert,
        clientKeyPem: certs.admin.key,
      });
    };
    const compactionInterval = options.etcdCompactionIntervalMs ?? DEFAULT_COMPACTION_INTERVAL_MS;
    const compactorModule = compactionInterval > 0 ? import('../storage/compactor.js') : undefined;
    await Promise.all([
      rbacThenCustomResources(),
      writeKubeconfig(),
      compactorModule,
      networking
        .start({
          resources,
          advertiseAddress: resolveAdvertiseAddress(options.advertiseAddress, options.bindAddress ?? '127.0.0.1'),
          securePort: Number(new URL(server.url).port),
          signal: lifetime.signal,
        })
        .then(() => {
          health.markPostStartHookDone('start-service-ip-repair-controllers');
          health.markPostStartHookDone('bootstrap-controller');
        }),
      startLegacyTokenTracking(resources, domain, {
        signal: lifetime.signal,
        logger,
        intervalMs: LEGACY_TOKEN_TRACKING_INTERVAL_MS,
      }),
      ensureSystemPriorityClasses(resources, domain, { signal: lifetime.signal, logger }).then(() =>
        health.markPostStartHookDone('scheduling/bootstrap-system-priority-classes'),
      ),
      ensureApfConfiguration(resources, domain, { signal: lifetime.signal, logger }).then(() => {
        startApfConfigProducer(resources, domain, {
          signal: lifetime.signal,
          logger,
          intervalMs: APF_ENSURE_INTERVAL_MS,
        });
        health.markPostStartHookDone('priority-and-fairness-config-producer');
      }),
    ]);
    // --- controllers (src/controllers): identity lease, coordinated election, and the
    // leader-elected garbage collector, namespace, serviceaccount and aggregation controllers ---
    const replicas = startReplicaControllers({
      resources: served,
      authorizer: api.authorizer,
      domain,
      logger,
      runControllers: options.runControllers !== false,
      leaderElection,
      coordinatedLeaderElection: gates.enabled(OrchFeatures.CoordinatedLeaderElection),
      apiServerIdentity: gates.enabled(OrchFeatures.APIServerIdentity),
      hostname: options.hostname,
      signal: lifetime.signal,
    });
    health.markPostStartHookDone('bootstrap-namespaces');
    if (compactorModule) {
      const { startCompactor } = await compactorModule;
      startCompactor({ store, intervalMs: compactionInterval, logger, signal: lifetime.signal });
    }
    health.markPostStartHookDone('start-compactor');

    let closing: Promise<void> | undefined;
    const close = () => {
      closing ??= (async () => {
        health.markShuttingDown();
        const delay = options.shutdownDelayDurationMs ?? 0;
        if (delay > 0) await new Promise((r) => setTimeout(r, delay));
        await networking.stop();
        // The controllers stop and release their Lease while the store is still open.
        await replicas.stop();
        lifetime.abort();
        await customResources?.stopped();
        await server.close({ drainTimeoutMs: 60_000 });
        auditing?.backend.close();
        if (ownsStore) await store.close();
      })();
      return closing;
    };
    return { url: server.url, kubeconfigPath, admin, store, resources: served, close };
  } catch (e) {
    lifetime.abort();
    auditing?.backend.close();
    await listening?.close({ drainTimeoutMs: 0 }).catch(() => {});
    if (ownsStore) await store.close().catch(() => {});
    throw e;
  }
}

/** `apiserver_storage_objects`: objects per stored group/resource, from the watch caches (one view each). */
function* storageObjectCounts(resources: ResourceSet | undefined): Iterable<readonly [string, number]> {
  if (!resources) return;
  const seen = new Set<string>();
  for (const served of resources.all()) {
    // Named by the stored resource: kube's events.k8s.io store counts as `events`, as core's does.
    const d = storageResourceOf(served.def);
    const name = d.group ? `${d.resource}.${d.group}` : d.resource;
    if (seen.has(name) || !served.cacher) continue;
    seen.add(name);
    yield [name, served.cacher.stats().objects];
  }
}

/** The audit flags. */
export interface AuditOptions {
  readonly policyFile?: string;
  /** `-`: standard output. */
  readonly logPath?: string;
  readonly logMaxAgeDays?: number;
  readonly logMaxBackups?: number;
  readonly logMaxSizeMB?: number;
}

async function loadAudit(
  o: AuditOptions | undefined,
  domain: ApiDomain,
  logger: Logger,
): Promise<{ evaluator: AuditPolicyEvaluator; backend: AuditBackend } | undefined> {
  if (!o?.policyFile) return undefined;
  let text: string;
  try {
    text = await readFile(o.policyFile, 'utf8');
  } catch (e) {
    throw new AuditPolicyError(`failed to read file path ${JSON.stringify(o.policyFile)}: ${(e as Error).message}`);
  }
  const { policy, warnings } = parseAuditPolicy(text, o.policyFile, domain);
  for (const w of warnings) logger.warn(w, { file: o.policyFile });
  if (!o.logPath) {
    logger.info('no audit backend configured (--audit-log-path): requests are not audited');
    return undefined;
  }
  const backend = new LogBackend({
    path: o.logPath,
    maxAgeDays: o.logMaxAgeDays,
    maxBackups: o.logMaxBackups,
    maxSizeMB: o.logMaxSizeMB,
    onError: (e) => logger.error('audit log write failed', { error: e instanceof Error ? e.message : String(e) }),
  });
  return { evaluator: new AuditPolicyEvaluator(policy), backend };
}

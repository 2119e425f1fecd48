import { randomUUID } from 'node:crypto';
import { mkdir } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { builtinResources } from '../apis/builtin.js';
import type { ApiObject } from '../apis/object.js';
import { buildRequestAuthenticator } from '../authn/request-authenticator.js';
import { X509Authenticator } from '../authn/x509-authenticator.js';
import { startControllers } from '../controllers/index.js';
import { discoveryHandler } from '../endpoints/discovery/discovery-handler.js';
import { authentication } from '../endpoints/filters/authentication.js';
import { requestInfo } from '../endpoints/filters/request-info.js';
import { chain } from '../endpoints/handler.js';
import { resourceHandler } from '../endpoints/handlers/resource-handler.js';
import { ServedResources } from '../endpoints/served-resources.js';
import { newOrchFeatureGates, OrchFeatures } from '../featuregate/orch-features.js';
import { RuntimeConfig } from '../featuregate/runtime-config.js';
import type { GenericRegistry } from '../registry/generic/generic-registry.js';
import type { RegistryContext } from '../registry/generic/registry-context.js';
import { decodeStored } from '../registry/generic/stored-object.js';
import { createRegistry } from '../registry/resources/index.js';
import { Cacher, EncodingCache } from '../storage/cacher/index.js';
import { keyScheme, resourcePrefix } from '../storage/keys.js';
import type { Store } from '../storage/store.js';
import { systemClock } from '../util/clock.js';
import { type Logger, silentLogger } from '../util/logger.js';
import { ensureSystemNamespaces } from './bootstrap-namespaces.js';
import { exchangeHandler } from './exchange-adapter.js';
import { cacheControl } from './filters/cache-control.js';
import { panicRecovery } from './filters/panic-recovery.js';
import { HealthRegistry } from './health/health-registry.js';
import { openStore, type StorageBackend } from './open-store.js';
import { openApiHandler } from './openapi-handler.js';
import { rootHandler } from './root-handler.js';
import { rootPathsHandler } from './root-paths.js';
import { startSecureServer } from './serving/secure-server.js';
import { ensureCertificates } from './tls/ensure-certificates.js';
import { writeAdminKubeconfig } from './tls/kubeconfig.js';
import { versionInfo } from './version.js';

/** Options of {@link startServer}; they mirror the `orch-apiserver` flags. */
export interface ServerOptions {
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
  /** Feature gate settings, e.g. `{ APIResponseCompression: false }`. */
  readonly featureGates?: Readonly<Record<string, boolean>>;
  /** `--runtime-config` value(s). */
  readonly runtimeConfig?: string | readonly string[] | RuntimeConfig;
  /** Graceful shutdown: how long `/readyz` fails before the server stops serving. */
  readonly shutdownDelayDurationMs?: number;
  readonly livezGracePeriodMs?: number;
  readonly logger?: Logger;
  /** Use this store instead of opening one (it is not closed by `close()`). */
  readonly store?: Store;
  /** Run the garbage collector and the namespace controller in this process (default true). */
  readonly runControllers?: boolean;
  /** Watches without timeoutSeconds end after a random time in [this, 2×this) seconds (default 1800). */
  readonly minRequestTimeoutSeconds?: number;
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
   * Graceful stop: `/readyz` fails at once, the server keeps serving for the shutdown delay,
   * then stops accepting, drains in-flight requests and closes the store. Idempotent.
   */
  close(): Promise<void>;
}

const DEFAULT_COMPACTION_INTERVAL_MS = 5 * 60 * 1000;
// Bookmarks are never promised at any interval; idle watchers with bookmarks get one this often.
const BOOKMARK_INTERVAL_MS = 5000;

/**
 * Starts Orch in this process: opens the store, ensures certificates, builds the registries,
 * creates the system namespaces, and serves HTTPS. Resolves once the server is ready.
 */
export async function startServer(options: ServerOptions = {}): Promise<RunningServer> {
  const logger = options.logger ?? silentLogger;
  const dataDir = resolve(options.dataDir ?? '.orch');
  await mkdir(dataDir, { recursive: true, mode: 0o700 });
  const gates = newOrchFeatureGates();
  if (options.featureGates) gates.setFromMap(options.featureGates);
  const runtimeConfig =
    options.runtimeConfig instanceof RuntimeConfig
      ? options.runtimeConfig
      : options.runtimeConfig !== undefined
        ? RuntimeConfig.parse(options.runtimeConfig as string | string[])
        : RuntimeConfig.empty();

  const lifetime = new AbortController();
  const certs = await ensureCertificates({
    certDir: options.certDir ?? join(dataDir, 'pki'),
    tlsCertFile: options.tlsCertFile || undefined,
    tlsKeyFile: options.tlsPrivateKeyFile || undefined,
    clientCaFile: options.clientCaFile || undefined,
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

  try {
    const keys = keyScheme(options.etcdPrefix ?? '/registry');
    const defs = builtinResources().filter((d) => runtimeConfig.isEnabled(d.group, d.version, d.resource));
    const registries = new Map<string, GenericRegistry>();
    const namespaceLookup = async (name: string, signal: AbortSignal): Promise<ApiObject | undefined> => {
      const nsRegistry = registries.get('/namespaces');
      if (!nsRegistry) return undefined;
      try {
        return await nsRegistry.get({ namespace: '', signal }, name, {});
      } catch (e) {
        if ((e as { code?: number }).code === 404) return undefined;
        throw e;
      }
    };
    const cachers: Cacher<ApiObject>[] = [];
    for (const def of defs) {
      // One watch cache per resource, fed by a single store watch on its prefix.
      const cacher = new Cacher<ApiObject>({
        store,
        prefix: resourcePrefix(keys, def.group, def.resource),
        decode: decodeStored,
        logger,
        bookmarkIntervalMs: BOOKMARK_INTERVAL_MS,
      });
      cachers.push(cacher);
      const rc: RegistryContext = {
        cacher,
        def,
        gr: { group: def.group, resource: def.resource },
        store,
        keys,
        clock: systemClock,
        uid: randomUUID,
        namespaceLookup: def.namespaced ? namespaceLookup : undefined,
        allowUnsafeMalformedObjectDeletion: gates.enabled(OrchFeatures.AllowUnsafeMalformedObjectDeletion),
      };
      registries.set(`${def.group}/${def.resource}`, createRegistry(rc));
    }
    const served = new ServedResources(
      defs.map((def) => ({ def, store: registries.get(`${def.group}/${def.resource}`)! })),
    );

    const health = new HealthRegistry({ livezGracePeriodMs: options.livezGracePeriodMs ?? 0, logger });
    health.registerCheck('etcd', async (signal) => {
      await store.currentRevision(signal);
    });
    health.registerPostStartHook('bootstrap-namespaces');
    health.registerPostStartHook('start-compactor');

    let serverAddress = '';
    const handler = chain(
      [
        cacheControl(),
        panicRecovery(logger),
        requestInfo(),
        authentication(buildRequestAuthenticator({ authenticators: [new X509Authenticator()] }), lifetime.signal),
      ],
      rootHandler(
        {
          health,
          openapi: openApiHandler(defs),
          index: rootPathsHandler(served, health),
          discovery: discoveryHandler({
            resources: served,
            version: versionInfo(),
            serverAddress: () => serverAddress,
          }),
        },
        resourceHandler(served, {
          cborEnabled: gates.enabled(OrchFeatures.CBORServingAndStorage),
          compression: gates.enabled(OrchFeatures.APIResponseCompression),
          now: () => systemClock.now(),
          encodings: new EncodingCache(),
          minRequestTimeoutSeconds: options.minRequestTimeoutSeconds ?? 1800,
        }),
      ),
    );
    const server = await startSecureServer({
      host: options.bindAddress ?? '127.0.0.1',
      port: options.securePort ?? 6443,
      tls: { cert: certs.cert, key: certs.key, ca: certs.clientCa },
      handler: exchangeHandler(handler, logger),
      logger,
    });
    serverAddress = new URL(server.url).host;

    await Promise.all(cachers.map((c) => c.start(lifetime.signal)));
    const nsRegistry = registries.get('/namespaces');
    if (nsRegistry) await ensureSystemNamespaces(nsRegistry, lifetime.signal);
    // --- controllers (src/controllers): garbage collector and namespace controller ---
    const controllers =
      options.runControllers === false
        ? undefined
        : startControllers({ resources: served, logger, signal: lifetime.signal });
    health.markPostStartHookDone('bootstrap-namespaces');
    const compactionInterval = options.etcdCompactionIntervalMs ?? DEFAULT_COMPACTION_INTERVAL_MS;
    if (compactionInterval > 0) {
      const { startCompactor } = await import('../storage/compactor.js');
      startCompactor({ store, intervalMs: compactionInterval, logger, signal: lifetime.signal });
    }
    health.markPostStartHookDone('start-compactor');

    let kubeconfigPath: string | undefined;
    let admin: RunningServer['admin'];
    if (certs.admin && certs.servingCa) {
      kubeconfigPath = join(dataDir, 'admin.kubeconfig');
      admin = { ca: certs.servingCa, cert: certs.admin.cert, key: certs.admin.key };
      await writeAdminKubeconfig({
        path: kubeconfigPath,
        serverUrl: server.url,
        caPem: certs.servingCa,
        clientCertPem: certs.admin.cert,
        clientKeyPem: certs.admin.key,
      });
    }

    let closing: Promise<void> | undefined;
    const close = () => {
      closing ??= (async () => {
        health.markShuttingDown();
        const delay = options.shutdownDelayDurationMs ?? 0;
        if (delay > 0) await new Promise((r) => setTimeout(r, delay));
        lifetime.abort();
        await controllers?.stop();
        await server.close({ drainTimeoutMs: 60_000 });
        if (ownsStore) await store.close();
      })();
      return closing;
    };
    return { url: server.url, kubeconfigPath, admin, store, close };
  } catch (e) {
    lifetime.abort();
    if (ownsStore) await store.close().catch(() => {});
    throw e;
  }
}

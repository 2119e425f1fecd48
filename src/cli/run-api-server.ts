import { apiDomain } from '../apis/api-domain.js';
import { newOrchFeatureGates } from '../featuregate/orch-features.js';
import { servedDefinitions } from '../server/served-definitions.js';
import { startServer } from '../server/start-server.js';
import { jsonLogger } from '../util/logger.js';
import { parseApiServerCommandLine } from './flags/apiserver-flags.js';
import { FlagError } from './flags/errors.js';

/**
 * `orch-apiserver`: parse flags, start the server, stop gracefully on SIGTERM/SIGINT. Resolves
 * with the exit code. `onReady` runs once the server serves (the entry point's V8 tuning).
 */
export async function runApiServer(argv: string[], onReady: () => void = () => {}): Promise<number> {
  let parsed: ReturnType<typeof parseApiServerCommandLine>;
  try {
    parsed = parseApiServerCommandLine(argv, {
      featureGates: newOrchFeatureGates(),
      // Names only: nothing is served while the flags are read.
      servedResources: (domain) =>
        servedDefinitions(apiDomain(domain), () => {
          throw new Error('not serving');
        }),
    });
  } catch (e) {
    if (e instanceof FlagError) {
      process.stderr.write(`Error: ${e.message.split('\n').join('; ')}\n`);
      return 1;
    }
    throw e;
  }
  if (parsed.help) {
    process.stdout.write(parsed.usage);
    return 0;
  }
  const logger = jsonLogger();
  for (const w of parsed.warnings) logger.warn(w);
  const f = parsed.flags;
  const started = performance.now();
  const server = await startServer({
    dataDir: f.dataDir,
    apiDomain: f.apiDomain,
    bindAddress: f.bindAddress,
    securePort: f.securePort,
    storageBackend: f.storageBackend,
    etcdServers: f.etcdServers,
    etcdPrefix: f.etcdPrefix,
    etcdCompactionIntervalMs: f.etcdCompactionIntervalMs,
    certDir: f.certDir,
    tlsCertFile: f.tlsCertFile,
    tlsPrivateKeyFile: f.tlsPrivateKeyFile,
    clientCaFile: f.clientCaFile,
    authentication: f.authentication,
    featureGates: f.featureGates,
    runtimeConfig: f.runtimeConfig,
    shutdownDelayDurationMs: f.shutdownDelayDurationMs,
    livezGracePeriodMs: f.livezGracePeriodMs,
    minRequestTimeoutSeconds: f.minRequestTimeout,
    runControllers: f.runControllers,
    leaderElection: f.leaderElection,
    authorizationModes: f.authorizationModes,
    authorizationPolicyFile: f.authorizationPolicyFile || undefined,
    authorization: f.authorization,
    enableAdmissionPlugins: f.enableAdmissionPlugins,
    disableAdmissionPlugins: f.disableAdmissionPlugins,
    serviceClusterIPRange: f.serviceClusterIPRange,
    serviceNodePortRange: f.serviceNodePortRange,
    advertiseAddress: f.advertiseAddress || undefined,
    showHiddenMetricsForVersion: f.showHiddenMetricsForVersion || undefined,
    audit: f.audit,
    logger,
  });
  onReady();
  const readyMs = Math.round(performance.now() - started);
  const kc = server.kubeconfigPath ? ` admin kubeconfig: ${server.kubeconfigPath}` : '';
  process.stdout.write(`orch-apiserver serving on ${server.url} (ready in ${readyMs} ms)${kc}\n`);
  await new Promise<void>((resolve) => {
    const stop = (signal: string) => {
      logger.info('shutting down', { signal });
      server.close().then(resolve, (e) => {
        logger.error('shutdown failed', { error: String(e) });
        resolve();
      });
    };
    process.once('SIGTERM', () => stop('SIGTERM'));
    process.once('SIGINT', () => stop('SIGINT'));
  });
  return 0;
}

import { readFile } from 'node:fs/promises';
import type { ApiDomain } from '../apis/api-domain.js';
import type { ControllerDescriptor } from '../controllers/controller-descriptor.js';
import { systemClock } from '../util/clock.js';
import type { Logger } from '../util/logger.js';
import type { CloudControllerManagerConfiguration, OrchControllerManagerConfiguration } from './config/types.js';
import { connectToApiServer } from './connect.js';
import { runControllerManager } from './run-controller-manager.js';
import type { ServingCertificate } from './serving/self-signed-certificate.js';

export interface ControllerManagerProcessOptions {
  readonly component: string;
  readonly domain: ApiDomain;
  /** The effective configuration (either kind). */
  readonly config: OrchControllerManagerConfiguration | CloudControllerManagerConfiguration;
  readonly useServiceAccountCredentials: boolean;
  readonly enabled: readonly string[];
  readonly controllers: readonly ControllerDescriptor[];
  /** `--master`: replaces the server of the client configuration. */
  readonly master: string;
  /** `--tls-cert-file`/`--tls-private-key-file`; empty: a self-signed certificate. */
  readonly tls: { readonly tlsCertFile: string; readonly tlsPrivateKeyFile: string };
  readonly logger: Logger;
}

/**
 * A controller manager process from its loaded command line: connects (waiting for the API
 * server), serves health and metrics, runs the controllers, and stops cleanly on SIGTERM or
 * SIGINT (the controllers stop, the Leases are released). Resolves to the exit code.
 */
export async function controllerManagerProcess(o: ControllerManagerProcessOptions): Promise<number> {
  const stop = new AbortController();
  const onSignal = () => stop.abort();
  process.once('SIGTERM', onSignal);
  process.once('SIGINT', onSignal);
  let certificate: ServingCertificate | undefined;
  if (o.tls.tlsCertFile) {
    certificate = {
      cert: await readFile(o.tls.tlsCertFile, 'utf8'),
      key: await readFile(o.tls.tlsPrivateKeyFile, 'utf8'),
    };
  }
  const connection = await connectToApiServer({
    clientConnection: o.config.Generic.ClientConnection,
    master: o.master,
    component: o.component,
    domain: o.domain,
    logger: o.logger,
    signal: stop.signal,
  });
  const running = await runControllerManager({
    component: o.component,
    domain: o.domain,
    generic: o.config.Generic,
    config: o.config,
    controllers: o.controllers,
    enabled: o.enabled,
    useServiceAccountCredentials: o.useServiceAccountCredentials,
    connection,
    certificate,
    clock: systemClock,
    logger: o.logger,
    signal: stop.signal,
  });
  o.logger.info(`${o.component} started`, {
    serving: running.server?.url ?? 'off',
    controllers: o.enabled.length,
  });
  await running.done;
  process.off('SIGTERM', onSignal);
  process.off('SIGINT', onSignal);
  return 0;
}

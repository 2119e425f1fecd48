import type { ApiDomain } from '../apis/api-domain.js';
import { HttpApiClient } from '../client/api/http-api-client.js';
import { ServiceAccountCredentials } from '../client/api/service-account-credentials.js';
import { loadKubeconfig, type RestConfig } from '../client/rest/kubeconfig.js';
import type { Logger } from '../util/logger.js';
import type { ClientConnectionConfiguration } from './config/types.js';
import type { ApiConnection } from './run-controller-manager.js';

/** How long start-up waits for the API server to answer discovery. */
const CONNECT_TIMEOUT_MS = 30_000;

/** A client configuration file that cannot be used, or a server that cannot be reached. */
export class ConnectionError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'ConnectionError';
  }
}

/**
 * The controller manager's connection to the API server: the client configuration file of
 * `ClientConnection` (`--kubeconfig`; `--master` replaces its server), the component's own client
 * (its user agent and field manager are the component's name) and, on demand, each controller's
 * service-account client, all with `ClientConnection`'s rate limit and content types.
 */
export async function connectToApiServer(o: {
  readonly clientConnection: ClientConnectionConfiguration;
  readonly master: string;
  readonly component: string;
  readonly domain: ApiDomain;
  readonly logger: Logger;
  readonly signal: AbortSignal;
}): Promise<ApiConnection> {
  const file = o.clientConnection.orchconfig;
  if (!file)
    throw new ConnectionError('no client configuration: set --kubeconfig (ClientConnection) to a kubeconfig file');
  let rest: RestConfig;
  try {
    rest = await loadKubeconfig(file, undefined, o.domain);
  } catch (e) {
    throw new ConnectionError((e as Error).message, { cause: e });
  }
  if (o.master) rest = { ...rest, server: o.master };
  const client = {
    qps: o.clientConnection.qps,
    burst: o.clientConnection.burst,
    contentType: o.clientConnection.contentType,
    acceptContentTypes: o.clientConnection.acceptContentTypes,
    logger: o.logger,
  };
  // kube's controller manager waits for the API server to answer before it starts.
  let root: HttpApiClient | undefined;
  const deadline = Date.now() + CONNECT_TIMEOUT_MS;
  for (let attempt = 1; !root; attempt++) {
    try {
      root = await HttpApiClient.connect(
        { ...client, config: rest, domain: o.domain, fieldManager: o.component, userAgent: `${o.component}/v1.32.0` },
        o.signal,
      );
    } catch (e) {
      if (o.signal.aborted || Date.now() > deadline) {
        throw new ConnectionError(`cannot reach the API server at ${rest.server}: ${(e as Error).message}`, {
          cause: e,
        });
      }
      if (attempt === 1)
        o.logger.info('waiting for the API server', { server: rest.server, error: (e as Error).message });
      await new Promise((r) => setTimeout(r, 500));
    }
  }
  // kube's leader election client: the component's identity, a rate limit of its own.
  const election = await HttpApiClient.connect(
    {
      ...client,
      config: rest,
      domain: o.domain,
      fieldManager: o.component,
      userAgent: `${o.component}/v1.32.0 leader-election`,
      discoveryPeriodMs: 0,
    },
    o.signal,
  );
  const credentials = new ServiceAccountCredentials({
    root,
    config: rest,
    domain: o.domain,
    client,
    userAgent: `${o.component}/v1.32.0`,
    logger: o.logger,
  });
  return {
    root,
    election,
    serviceAccountClient: (serviceAccount, controller, signal) =>
      credentials.clientFor({ serviceAccount, name: controller }, signal),
    async close() {
      await credentials.close();
      election.close();
      root.close();
    },
  };
}

import { type ApiDomain, ORCH_DOMAIN } from '../../apis/api-domain.js';
import { ClientConfigError, loadClientConfig } from '../config/load-client-config.js';
import type { CredentialSource } from './credentials.js';

/** Where a server is and how to authenticate to it. PEM strings. */
export interface RestConfig {
  /** `https://host:port`. */
  readonly server: string;
  /** CA bundle that verifies the server; absent: the system roots. */
  readonly ca?: string;
  /** Client certificate and key. */
  readonly cert?: string;
  readonly key?: string;
  /** Bearer token. */
  readonly token?: string;
  /** `insecure-skip-tls-verify`: the server's certificate is not checked. */
  readonly insecureSkipTlsVerify?: boolean;
  /** `tls-server-name`: the name the server's certificate is checked against. */
  readonly tlsServerName?: string;
  /**
   * Credentials that change while the client runs (an exec plugin); asked before every request,
   * they replace `token`, `cert` and `key`.
   */
  readonly credentials?: CredentialSource;
}

/** A kubeconfig that cannot be used; the message names the file and the field. */
export class KubeconfigError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'KubeconfigError';
  }
}

/**
 * Reads a client configuration file (kubectl's format) and returns the server, TLS settings and
 * credentials of its current context (or `context`): client certificate and key, bearer token or
 * token file, CA, `insecure-skip-tls-verify`, or an exec credential plugin (`credentials`).
 * The `ORCHCONFIG`-style variable is not consulted; see `loadClientConfig` for that.
 * @throws KubeconfigError naming the file and every problem with its field path.
 */
export async function loadKubeconfig(
  file: string,
  context?: string,
  domain: ApiDomain = ORCH_DOMAIN,
): Promise<RestConfig> {
  try {
    return (await loadClientConfig({ domain, file, context, env: {} })).rest;
  } catch (e) {
    if (e instanceof ClientConfigError) throw new KubeconfigError(e.message, { cause: e });
    throw e;
  }
}

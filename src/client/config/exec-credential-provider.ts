import type { ApiDomain } from '../../apis/api-domain.js';
import type { ClientCredentials, CredentialSource } from '../rest/credentials.js';
import type { ExecConfig } from './client-config-file.js';
import { runExecPlugin } from './run-exec-plugin.js';

/** How exec plugins run; every member has a default for a real process. */
export interface ExecRuntime {
  /** Whether standard input is a terminal; default `process.stdin.isTTY`. */
  readonly stdinIsTerminal?: () => boolean;
  /** The environment the plugin inherits (before `env` of its config); default `process.env`. */
  readonly environ?: Readonly<Record<string, string | undefined>>;
  /** Where the plugin's standard error goes; default this process's. */
  readonly stderr?: 'inherit' | 'ignore';
  /** Milliseconds since the epoch; default `Date.now`. */
  readonly now?: () => number;
}

/** The cluster as a plugin with `provideClusterInfo` is told of it. */
export interface ExecCluster {
  readonly server: string;
  readonly certificateAuthorityData?: string;
  readonly insecureSkipTlsVerify?: boolean;
  readonly tlsServerName?: string;
  /** The cluster's `client.authentication.<domain>/exec` extension. */
  readonly config?: unknown;
}

/** Options of an {@link ExecCredentialProvider}. */
export interface ExecCredentialProviderOptions {
  readonly exec: ExecConfig;
  readonly domain: ApiDomain;
  readonly cluster: ExecCluster;
  readonly runtime?: ExecRuntime;
}

/**
 * Credentials from a `user.exec` plugin, cached as the spec says: until `expirationTimestamp`,
 * until the server answers 401, or for the life of the process. One plugin run at a time (an
 * interactive plugin is asked once however many requests wait).
 */
export class ExecCredentialProvider implements CredentialSource {
  private cached: ClientCredentials | undefined;
  private expiresAt: number | undefined;
  private running: Promise<ClientCredentials> | undefined;
  /** Plugin runs so far (tests and metrics). */
  calls = 0;

  constructor(private readonly options: ExecCredentialProviderOptions) {}

  async current(): Promise<ClientCredentials> {
    const now = (this.options.runtime?.now ?? Date.now)();
    if (this.cached && (this.expiresAt === undefined || now < this.expiresAt)) return this.cached;
    return this.refresh();
  }

  async unauthorized(used: ClientCredentials): Promise<void> {
    if (this.running) {
      await this.running;
      return;
    }
    // Already replaced since that request was sent: nothing to do.
    if (this.cached !== used) return;
    await this.refresh();
  }

  private refresh(): Promise<ClientCredentials> {
    this.running ??= this.run().finally(() => {
      this.running = undefined;
    });
    return this.running;
  }

  private async run(): Promise<ClientCredentials> {
    this.calls++;
    const r = await runExecPlugin({ ...this.options, runtime: this.options.runtime ?? {} });
    const previous = this.cached;
    // Keep the same object when nothing changed, so the client keeps its connections.
    this.cached =
      previous && previous.token === r.token && previous.cert === r.cert && previous.key === r.key
        ? previous
        : { token: r.token, cert: r.cert, key: r.key };
    this.expiresAt = r.expiresAt;
    return this.cached;
  }
}

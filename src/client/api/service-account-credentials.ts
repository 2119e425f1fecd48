import type { ApiDomain } from '../../apis/api-domain.js';
import { StatusError } from '../../apis/meta/status.js';
import type { ApiObject } from '../../apis/object.js';
import { type Logger, silentLogger } from '../../util/logger.js';
import { errorText, isStatus } from '../client-support.js';
import type { RestConfig } from '../rest/kubeconfig.js';
import type { ApiClient, ResourceClient } from './api-client.js';
import { HttpApiClient, type HttpApiClientOptions } from './http-api-client.js';

/** kube-controller-manager's token lifetime for controller clients (its dynamic client builder). */
export const DEFAULT_TOKEN_EXPIRATION_SECONDS = 3600;
/** A token is replaced once this share of its lifetime has passed (kube: 20% leeway). */
export const REFRESH_AT_LIFETIME_SHARE = 0.8;
/** After a failed refresh, try again after this long (or sooner when the token expires sooner). */
const REFRESH_RETRY_MS = 10_000;

/** Time and timers, injected so tests can drive refreshes. */
export interface CredentialTimers {
  now(): number;
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

const realTimers: CredentialTimers = {
  now: () => Date.now(),
  setTimeout: (fn, ms) => {
    const t = setTimeout(fn, ms);
    t.unref?.();
    return t;
  },
  clearTimeout: (h) => clearTimeout(h as ReturnType<typeof setTimeout>),
};

/** Options of a {@link ServiceAccountCredentials}. */
export interface ServiceAccountCredentialsOptions {
  /** The controller manager's own client: ensures service accounts and requests their tokens. */
  readonly root: ApiClient;
  /** Where the server is; only `server` and `ca` are used (the controllers authenticate with tokens). */
  readonly config: RestConfig;
  /** Names the system namespace (the service accounts' home) and the authentication group. */
  readonly domain: ApiDomain;
  /** The controller clients' connection settings (rate limit, content types, discovery period). */
  readonly client?: Omit<HttpApiClientOptions, 'config' | 'domain' | 'fieldManager' | 'bearerToken'>;
  /** Requested token lifetime. Default {@link DEFAULT_TOKEN_EXPIRATION_SECONDS}. */
  readonly expirationSeconds?: number;
  /** Base user agent; `/<controller>` is appended. Default `<service account>/v1.32.0 (<platform>/<arch>)`. */
  readonly userAgent?: string;
  readonly logger?: Logger;
  readonly timers?: CredentialTimers;
}

/** One controller's credentials: its client and current token. */
interface Entry {
  readonly serviceAccount: string;
  token: string;
  issuedAt: number;
  expiresAt: number;
  timer: unknown;
  refreshes: number;
  client?: HttpApiClient;
}

/** What a controller is, as far as its credentials go. */
export interface ControllerCredentialsSubject {
  /** Its service account in the system namespace. */
  readonly serviceAccount: string;
  /** Its controller name (appended to the user agent). Default the service account. */
  readonly name?: string;
}

/**
 * `UseServiceAccountCredentials`: one {@link HttpApiClient} per controller, authenticated as its
 * service account `system:serviceaccount:<system namespace>:<serviceAccount>` with a bound token
 * (kube's dynamic controller client builder). The service account is created when missing (and
 * the system namespace, tolerating a refusal); the token comes from the TokenRequest
 * sub-resource (`POST serviceaccounts/<name>/token`, `expirationSeconds`) and is replaced in the
 * background once 80% of its lifetime has passed. Requests read the current token as they start,
 * so a refresh interrupts none (a failed refresh is retried while the old token lasts). The
 * client's field manager is the service account name, as in process. Tokens appear in no log
 * line and no error.
 */
export class ServiceAccountCredentials {
  private readonly entries = new Map<string, Promise<Entry>>();
  private readonly timers: CredentialTimers;
  private readonly logger: Logger;
  private closed = false;

  constructor(private readonly o: ServiceAccountCredentialsOptions) {
    this.timers = o.timers ?? realTimers;
    this.logger = o.logger ?? silentLogger;
  }

  /**
   * The client of a controller (the same one for every call with the same service account).
   * @throws StatusError when the service account cannot be ensured or no token is granted.
   */
  async clientFor(subject: ControllerCredentialsSubject, signal?: AbortSignal): Promise<HttpApiClient> {
    const sa = subject.serviceAccount;
    let pending = this.entries.get(sa);
    if (!pending) {
      pending = this.create(subject, signal ?? new AbortController().signal);
      this.entries.set(sa, pending);
      pending.catch(() => this.entries.delete(sa));
    }
    const entry = await pending;
    return entry.client!;
  }

  /** When the current token of `serviceAccount` expires and how often it was refreshed (tests, metrics). */
  async tokenState(serviceAccount: string): Promise<{ expiresAt: Date; refreshes: number } | undefined> {
    const e = await this.entries.get(serviceAccount)?.catch(() => undefined);
    return e && { expiresAt: new Date(e.expiresAt), refreshes: e.refreshes };
  }

  /** Stops the refreshes and closes every client. */
  async close(): Promise<void> {
    this.closed = true;
    for (const p of this.entries.values()) {
      const e = await p.catch(() => undefined);
      if (!e) continue;
      this.timers.clearTimeout(e.timer);
      e.client?.close();
    }
    this.entries.clear();
  }

  private serviceAccounts(): ResourceClient {
    const c = this.o.root.resource('', 'v1', 'serviceaccounts');
    if (!c) throw new StatusError(404, 'NotFound', 'the server does not serve serviceaccounts');
    return c;
  }

  private async create(subject: ControllerCredentialsSubject, signal: AbortSignal): Promise<Entry> {
    const sa = subject.serviceAccount;
    await this.ensureServiceAccount(sa, signal);
    const granted = await this.requestToken(sa, signal);
    const entry: Entry = { serviceAccount: sa, ...granted, timer: undefined, refreshes: 0 };
    const base = this.o.userAgent ?? `${sa}/v1.32.0 (${process.platform}/${process.arch})`;
    entry.client = await HttpApiClient.connect(
      {
        ...this.o.client,
        config: { server: this.o.config.server, ca: this.o.config.ca },
        domain: this.o.domain,
        fieldManager: sa,
        userAgent: `${base}/${subject.name ?? sa}`,
        bearerToken: () => entry.token,
      },
      signal,
    );
    if (this.closed) {
      entry.client.close();
    } else {
      this.schedule(entry);
    }
    return entry;
  }

  /** kube's getOrCreateServiceAccount: the account, created (with its namespace) when missing. */
  private async ensureServiceAccount(name: string, signal: AbortSignal): Promise<void> {
    const namespace = this.o.domain.systemNamespace;
    const accounts = this.serviceAccounts();
    try {
      await accounts.get(namespace, name, signal);
      return;
    } catch (e) {
      if (!isStatus(e, 404)) throw e;
    }
    try {
      await this.o.root
        .resource('', 'v1', 'namespaces')
        ?.create('', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: namespace } }, signal);
    } catch {
      // Exists already, or this identity may not create namespaces: the account create decides.
    }
    try {
      await accounts.create(namespace, { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name } }, signal);
      this.logger.info('service account credentials: created service account', { namespace, serviceAccount: name });
    } catch (e) {
      if (!isStatus(e, 409)) throw e;
    }
  }

  private async requestToken(
    name: string,
    signal: AbortSignal,
  ): Promise<{ token: string; issuedAt: number; expiresAt: number }> {
    const issuedAt = this.timers.now();
    const request = {
      apiVersion: `${this.o.domain.group('authentication')}/v1`,
      kind: 'TokenRequest',
      metadata: {},
      spec: { expirationSeconds: this.o.expirationSeconds ?? DEFAULT_TOKEN_EXPIRATION_SECONDS },
    } as ApiObject;
    const tr = (await this.serviceAccounts().create(this.o.domain.systemNamespace, request, signal, {
      subresource: 'token',
      name,
    })) as ApiObject & { status?: { token?: unknown; expirationTimestamp?: unknown } };
    const token = tr.status?.token;
    const expiry = Date.parse(String(tr.status?.expirationTimestamp ?? ''));
    if (typeof token !== 'string' || token === '' || Number.isNaN(expiry)) {
      throw new Error(`TokenRequest for service account ${name}: the response has no token or expiration`);
    }
    // The granted lifetime (the server may shorten or lengthen it), on this machine's clock; an
    // expiration already past by our clock (skew) counts as the requested lifetime.
    const requested = (this.o.expirationSeconds ?? DEFAULT_TOKEN_EXPIRATION_SECONDS) * 1000;
    const lifetime = expiry - issuedAt;
    return { token, issuedAt, expiresAt: issuedAt + (lifetime > 0 ? lifetime : requested) };
  }

  private schedule(entry: Entry, delayMs?: number): void {
    if (this.closed) return;
    const due = entry.issuedAt + (entry.expiresAt - entry.issuedAt) * REFRESH_AT_LIFETIME_SHARE;
    const delay = delayMs ?? Math.max(0, due - this.timers.now());
    entry.timer = this.timers.setTimeout(() => void this.refresh(entry), delay);
  }

  private async refresh(entry: Entry): Promise<void> {
    if (this.closed) return;
    try {
      const granted = await this.requestToken(entry.serviceAccount, new AbortController().signal);
      entry.token = granted.token;
      entry.issuedAt = granted.issuedAt;
      entry.expiresAt = granted.expiresAt;
      entry.refreshes++;
      this.schedule(entry);
    } catch (e) {
      const left = entry.expiresAt - this.timers.now();
      this.logger.warn('service account credentials: token refresh failed; retrying', {
        serviceAccount: entry.serviceAccount,
        error: errorText(e),
      });
      this.schedule(entry, Math.max(1000, Math.min(REFRESH_RETRY_MS, left / 2)));
    }
  }
}

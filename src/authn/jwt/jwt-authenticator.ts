import { type Clock, systemClock } from '../../util/clock.js';
import type { Logger } from '../../util/logger.js';
import type { CompiledJwtAuthenticator } from '../authentication-config/compiled-jwt-authenticator.js';
import { TOKEN_NO_OPINION, type TokenAuthenticator, type TokenAuthResult } from '../token-authenticator.js';
import { ClaimMappingError, userFromClaims } from './claim-mapper.js';
import { type DocumentFetcher, httpsFetcher } from './https-fetcher.js';
import { IdTokenVerifier } from './id-token-verifier.js';
import type { JwtLatencyMetrics } from './jwt-latency-metrics.js';
import { discoverProvider } from './oidc-discovery.js';
import { RemoteKeySet } from './remote-key-set.js';
import { untrustedIssuer } from './untrusted-issuer.js';

export interface JwtAuthenticatorOptions {
  readonly authenticator: CompiledJwtAuthenticator;
  /** Algorithms tokens may be signed with. */
  readonly signingAlgs: readonly string[];
  /** The user-extra key of the credential id (`authentication.<domain>/credential-id`). */
  readonly credentialIdKey: string;
  /** Stops discovery retries and key fetches when it aborts. */
  readonly lifetime: AbortSignal;
  readonly logger: Logger;
  readonly clock?: Clock;
  /** Default: HTTPS with the issuer's `certificateAuthority` (host roots when empty). */
  readonly fetcher?: DocumentFetcher;
  /** Wait between failed discovery attempts (kube-apiserver: 10 s). */
  readonly retryIntervalMs?: number;
  /** See {@link RemoteKeySet}. */
  readonly keyRefreshCooldownMs?: number;
  /** Where the latency of each authentication of this issuer's tokens is recorded. */
  readonly latency?: JwtLatencyMetrics;
}

/**
 * One JWT authenticator of the authentication configuration (or of the `--oidc-*` flags), as
 * kube-apiserver's OIDC token authenticator: a token whose unverified `iss` is not this
 * issuer is `no-opinion`; otherwise it is verified (discovery and keys fetched over HTTPS,
 * discovery retried in the background until it succeeds) and its claims mapped to a user. A
 * failure is an `error` with kube's text, never containing the token.
 */
export class JwtAuthenticator implements TokenAuthenticator {
  readonly issuer: string;
  readonly #o: JwtAuthenticatorOptions;
  #verifier: IdTokenVerifier | undefined;
  #health: Error | undefined;
  readonly #ready: Promise<void>;

  constructor(options: JwtAuthenticatorOptions) {
    this.#o = options;
    this.issuer = options.authenticator.config.issuer.url;
    this.#health = new Error(`oidc: authenticator for issuer ${JSON.stringify(this.issuer)} is not initialized`);
    this.#ready = this.#initialize();
  }

  /** `undefined` once discovery succeeded; otherwise why the authenticator cannot verify tokens yet. */
  healthCheck(): Error | undefined {
    if (this.#health === undefined) return undefined;
    return new Error(
      `oidc: authenticator for issuer ${JSON.stringify(this.issuer)} is not healthy: ${this.#health.message}`,
    );
  }

  /** Resolves once discovery succeeded (never rejects; stays pending while it keeps failing). */
  whenReady(): Promise<void> {
    return this.#ready;
  }

  async #initialize(): Promise<void> {
    const o = this.#o;
    const issuer = o.authenticator.config.issuer;
    const fetcher = o.fetcher ?? httpsFetcher({ ca: issuer.certificateAuthority || undefined });
    const retryMs = o.retryIntervalMs ?? 10_000;
    while (!o.lifetime.aborted) {
      try {
        const provider = await discoverProvider(issuer.url, issuer.discoveryURL, fetcher, o.lifetime);
        const keySet = new RemoteKeySet({
          jwksUri: provider.jwksUri,
          fetcher,
          lifetime: o.lifetime,
          refreshCooldownMs: o.keyRefreshCooldownMs,
          clock: o.clock,
        });
        this.#verifier = new IdTokenVerifier({
          issuer: issuer.url,
          audiences: issuer.audiences,
          signingAlgs: o.signingAlgs,
          keySet,
          now: () => (o.clock ?? systemClock).now(),
        });
        this.#health = undefined;
        return;
      } catch (e) {
        this.#health = e instanceof Error ? e : new Error(String(e));
        if (o.lifetime.aborted) break;
        o.logger.error('oidc authenticator: initializing plugin', { issuer: issuer.url, error: this.#health.message });
        await sleep(retryMs, o.lifetime);
      }
    }
    // Never ready once the lifetime ended.
    await new Promise<void>(() => {});
  }

  async authenticateToken(token: string): Promise<TokenAuthResult> {
    if (untrustedIssuer(token) !== this.issuer) return TOKEN_NO_OPINION;
    const start = performance.now();
    const result = await this.#authenticate(token);
    this.#o.latency?.observe(
      this.issuer,
      result.kind === 'user' ? 'success' : 'failure',
      (performance.now() - start) / 1000,
    );
    return result;
  }

  async #authenticate(token: string): Promise<TokenAuthResult> {
    const verifier = this.#verifier;
    if (verifier === undefined) return { kind: 'error', message: 'oidc: authenticator not initialized' };
    let claims: Readonly<Record<string, unknown>>;
    try {
      claims = (await verifier.verify(token)).claims;
    } catch (e) {
      return { kind: 'error', message: `oidc: verify token: ${e instanceof Error ? e.message : String(e)}` };
    }
    const groupsClaim = this.#o.authenticator.config.claimMappings.groups.claim;
    if (groupsClaim !== '' && !(groupsClaim in claims) && isDistributed(claims, groupsClaim)) {
      return {
        kind: 'error',
        message: 'oidc: could not expand distributed claims: distributed claims are not supported',
      };
    }
    try {
      return { kind: 'user', user: userFromClaims(this.#o.authenticator, claims, this.#o.credentialIdKey) };
    } catch (e) {
      if (e instanceof ClaimMappingError) return { kind: 'error', message: e.message };
      throw e;
    }
  }
}

function isDistributed(claims: Readonly<Record<string, unknown>>, claim: string): boolean {
  const names = claims._claim_names;
  return names !== null && typeof names === 'object' && claim in (names as Record<string, unknown>);
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done, { once: true });
  });
}

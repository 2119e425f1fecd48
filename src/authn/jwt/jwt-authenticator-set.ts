import type { Clock } from '../../util/clock.js';
import type { Logger } from '../../util/logger.js';
import type { CompiledJwtAuthenticator } from '../authentication-config/compiled-jwt-authenticator.js';
import { audienceAgnostic, TOKEN_NO_OPINION, type TokenAuthenticator } from '../token-authenticator.js';
import type { DocumentFetcher } from './https-fetcher.js';
import { JwtAuthenticator } from './jwt-authenticator.js';
import type { JwtLatencyMetrics } from './jwt-latency-metrics.js';

export interface JwtAuthenticatorSetOptions {
  readonly authenticators: readonly CompiledJwtAuthenticator[];
  readonly signingAlgs: readonly string[];
  /** The server's own audiences: tokens are accepted only for requests wanting one of them. */
  readonly apiAudiences: readonly string[];
  readonly credentialIdKey: string;
  /** The server's lifetime; the set also stops on {@link JwtAuthenticatorSet.close}. */
  readonly lifetime: AbortSignal;
  readonly logger: Logger;
  readonly clock?: Clock;
  /** For tests: one fetcher for every issuer instead of HTTPS with each issuer's CA. */
  readonly fetcher?: DocumentFetcher;
  readonly retryIntervalMs?: number;
  readonly keyRefreshCooldownMs?: number;
  readonly latency?: JwtLatencyMetrics;
}

/**
 * The JWT authenticators of one configuration, tried in order with the first error ending the
 * search (each answers only for its own issuer), behind the audience check of authenticators
 * whose tokens name no server audience (kube's `WrapAudienceAgnosticToken`).
 */
export class JwtAuthenticatorSet {
  readonly authenticators: readonly JwtAuthenticator[];
  readonly token: TokenAuthenticator;
  readonly #stop = new AbortController();

  constructor(o: JwtAuthenticatorSetOptions) {
    const lifetime = AbortSignal.any([o.lifetime, this.#stop.signal]);
    this.authenticators = o.authenticators.map(
      (authenticator) =>
        new JwtAuthenticator({
          authenticator,
          signingAlgs: o.signingAlgs,
          credentialIdKey: o.credentialIdKey,
          lifetime,
          logger: o.logger,
          clock: o.clock,
          fetcher: o.fetcher,
          retryIntervalMs: o.retryIntervalMs,
          keyRefreshCooldownMs: o.keyRefreshCooldownMs,
          latency: o.latency,
        }),
    );
    const list = this.authenticators;
    this.token = audienceAgnostic(o.apiAudiences, {
      async authenticateToken(token) {
        for (const a of list) {
          const r = await a.authenticateToken(token);
          if (r.kind !== 'no-opinion') return r;
        }
        return TOKEN_NO_OPINION;
      },
    });
  }

  /** Every authenticator's problem, empty when all are initialized. */
  healthCheck(): Error[] {
    return this.authenticators.map((a) => a.healthCheck()).filter((e): e is Error => e !== undefined);
  }

  /**
   * Resolves once every authenticator is initialized; rejects with their problems (joined as Go
   * aggregates them) when `signal` aborts first.
   */
  async whenHealthy(signal: AbortSignal): Promise<void> {
    const ready = Promise.all(this.authenticators.map((a) => a.whenReady())).then(() => undefined);
    let fail = () => {};
    const aborted = new Promise<never>((_, reject) => {
      fail = () => {
        const errs = this.healthCheck().map((e) => e.message);
        errs.push('context deadline exceeded');
        reject(new Error(errs.length === 1 ? (errs[0] as string) : `[${errs.join(', ')}]`));
      };
      if (signal.aborted) fail();
      else signal.addEventListener('abort', fail, { once: true });
    });
    try {
      await Promise.race([ready, aborted]);
    } finally {
      signal.removeEventListener('abort', fail);
    }
  }

  /** Stops discovery retries and key fetches. */
  close(): void {
    this.#stop.abort();
  }
}

import { Histogram, type Registry } from 'prom-client';
import { apiServerIdHash } from '../authentication-config/reload-metrics.js';

const NAME = 'apiserver_authentication_jwt_authenticator_latency_seconds';

/**
 * kube-apiserver v1.32's `apiserver_authentication_jwt_authenticator_latency_seconds`: time spent
 * authenticating a token on a cache miss, by `result` (`success`|`failure`) and
 * `jwt_issuer_hash` (`sha256:<hex>` of the issuer URL). Tokens of other issuers are not counted.
 */
export class JwtLatencyMetrics {
  readonly #histogram: Histogram<'result' | 'jwt_issuer_hash'>;

  constructor(registry: Registry) {
    this.#histogram =
      (registry.getSingleMetric(NAME) as Histogram<'result' | 'jwt_issuer_hash'> | undefined) ??
      new Histogram({
        name: NAME,
        help: '[ALPHA] Latency of jwt authentication operations in seconds. This is the time spent authenticating a token for cache miss only (i.e. when the token is not found in the cache).',
        labelNames: ['result', 'jwt_issuer_hash'],
        buckets: [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
        registers: [registry],
      });
  }

  /** Records one authentication of a token of `issuer`. */
  observe(issuer: string, result: 'success' | 'failure', seconds: number): void {
    this.#histogram.observe({ result, jwt_issuer_hash: apiServerIdHash(issuer) }, seconds);
  }
}

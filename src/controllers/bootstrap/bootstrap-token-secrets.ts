import type { ApiDomain } from '../../apis/api-domain.js';
import type { ApiObject } from '../../apis/object.js';
import { BOOTSTRAP_SECRET_PREFIX, bootstrapTokenExpired } from '../../authn/bootstrap-token-authenticator.js';
import { secretText } from '../controller-support.js';

/** `bootstrap.<domain>/token` (kube: `bootstrap.kubernetes.io/token`). */
export function bootstrapTokenType(domain: ApiDomain): string {
  return domain.key('bootstrap', 'token');
}

/** True for a Secret of the bootstrap token type in the system namespace. */
export function isBootstrapTokenSecret(secret: ApiObject, domain: ApiDomain): boolean {
  return secret.type === bootstrapTokenType(domain) && secret.metadata.namespace === domain.systemNamespace;
}

/** Largest delay a timer can wait (about 24.8 days); longer waits are re-evaluated after it. */
export const MAX_TIMER_MS = 2 ** 31 - 1;

/**
 * A bootstrap token's `expiration` relative to `now` (kube's `GetExpiration`): expired when the
 * time passed or cannot be read (RFC 3339), else the time left in ms; no expiration: `undefined`.
 */
export function bootstrapTokenExpiration(
  secret: ApiObject,
  now: Date,
): { readonly expired: true } | { readonly expired: false; readonly ttlMs: number } | undefined {
  const expiration = secretText(secret, 'expiration');
  if (expiration === '') return undefined;
  if (bootstrapTokenExpired(expiration, now)) return { expired: true };
  return { expired: false, ttlMs: Date.parse(expiration.toUpperCase()) - now.getTime() };
}

const NAME = new RegExp(`^${BOOTSTRAP_SECRET_PREFIX}([a-z0-9]{6})$`);

/** A token allowed to sign the cluster-info ConfigMap. */
export interface SigningToken {
  readonly id: string;
  readonly secret: string;
  /** Time left before it expires, in ms; undefined when it does not expire. */
  readonly ttlMs?: number;
}

/**
 * The signing token a Secret holds (kube's `validateSecretForSigning`): named
 * `bootstrap-token-<id>` with the same `token-id`, a `token-secret`, not expired, and
 * `usage-bootstrap-signing: "true"`; otherwise undefined.
 */
export function signingToken(secret: ApiObject, domain: ApiDomain, now: Date): SigningToken | undefined {
  if (!isBootstrapTokenSecret(secret, domain)) return undefined;
  const m = NAME.exec(secret.metadata.name ?? '');
  if (!m) return undefined;
  const id = secretText(secret, 'token-id');
  if (id === '' || id !== m[1]) return undefined;
  const tokenSecret = secretText(secret, 'token-secret');
  if (tokenSecret === '') return undefined;
  const exp = bootstrapTokenExpiration(secret, now);
  if (exp?.expired) return undefined;
  if (secretText(secret, 'usage-bootstrap-signing') !== 'true') return undefined;
  return { id, secret: tokenSecret, ...(exp ? { ttlMs: exp.ttlMs } : {}) };
}

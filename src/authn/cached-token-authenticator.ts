import { createHmac, randomBytes } from 'node:crypto';
import { type Clock, systemClock } from '../util/clock.js';
import type { TokenAuthenticator, TokenAuthResult, TokenRequestContext } from './token-authenticator.js';

export interface TokenCacheOptions {
  /** How long a success is remembered (kube-apiserver: 10 s). */
  readonly successTtlMs: number;
  /** How long a failure (`error` or `no-opinion`) is remembered; 0 = never (kube-apiserver's default). */
  readonly failureTtlMs: number;
  /**
   * Whether `error` results are remembered (for `failureTtlMs`) like `no-opinion` ones; default true.
   * kube-apiserver's webhook cache keeps no errors, so an outage is not remembered.
   */
  readonly cacheErrors?: boolean;
  /** Entries kept at most; the oldest go first. Default 65,536. */
  readonly maxEntries?: number;
  readonly clock?: Clock;
}

interface Entry {
  readonly result: TokenAuthResult;
  readonly expiresAt: number;
}

/**
 * Remembers token authentications for a short time so a hot path does not verify a JWT signature
 * (or call a webhook) per request. Keys are an HMAC-SHA-256 of the audiences and the token under a
 * key made at start-up: the token itself is never kept. Concurrent lookups of the same token share
 * one authentication.
 */
export function cachedTokenAuthenticator(inner: TokenAuthenticator, options: TokenCacheOptions): TokenAuthenticator {
  const clock = options.clock ?? systemClock;
  const maxEntries = options.maxEntries ?? 65_536;
  const hmacKey = randomBytes(32);
  const entries = new Map<string, Entry>();
  const inFlight = new Map<string, Promise<TokenAuthResult>>();

  const keyOf = (token: string, ctx: TokenRequestContext): string => {
    const h = createHmac('sha256', hmacKey);
    for (const a of ctx.audiences) h.update(`${a.length}:${a}`);
    h.update('\0');
    h.update(token);
    return h.digest('base64');
  };

  const remember = (key: string, result: TokenAuthResult): void => {
    if (result.kind === 'error' && options.cacheErrors === false) return;
    const ttl = result.kind === 'user' ? options.successTtlMs : options.failureTtlMs;
    if (ttl <= 0) return;
    if (entries.size >= maxEntries) {
      const oldest = entries.keys().next().value;
      if (oldest !== undefined) entries.delete(oldest);
    }
    entries.set(key, { result, expiresAt: clock.now().getTime() + ttl });
  };

  return {
    async authenticateToken(token, ctx) {
      const key = keyOf(token, ctx);
      const hit = entries.get(key);
      if (hit !== undefined) {
        if (hit.expiresAt > clock.now().getTime()) return hit.result;
        entries.delete(key);
      }
      const pending = inFlight.get(key);
      if (pending !== undefined) return pending;
      const p = inner.authenticateToken(token, ctx).then(
        (result) => {
          inFlight.delete(key);
          remember(key, result);
          return result;
        },
        (e: unknown) => {
          inFlight.delete(key);
          throw e;
        },
      );
      inFlight.set(key, p);
      return p;
    },
  } satisfies TokenAuthenticator;
}

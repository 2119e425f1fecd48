import { hash, randomBytes, timingSafeEqual } from 'node:crypto';
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

/** The last token a connection sent and its cache key. */
interface ConnectionToken {
  readonly token: Buffer;
  readonly audiences: readonly string[];
  readonly key: string;
}

/**
 * Remembers token authentications for a short time so a hot path does not verify a JWT signature
 * (or call a webhook) per request. Keys are a SHA-256 of a secret made at start-up, the audiences
 * and the token: how long a lookup takes depends on that digest, not on how much of a cached
 * token a guess matches. Concurrent lookups of the same token share one authentication. A hit
 * (and an inner authenticator's synchronous answer) is returned as it is, without a promise.
 *
 * Per connection (`ctx.connection`), the last token and its key are kept while the connection
 * lives: a client sending the same token again on it is given the key after a constant-time
 * comparison (`timingSafeEqual`) instead of a digest, which costs a cached GET several
 * microseconds. Only the key is memoized: the entry it names expires and is evicted as before,
 * and any other token on that connection is hashed and replaces the memo. Tokens sent by no
 * connection (TokenReview) are never kept.
 */
export function cachedTokenAuthenticator(inner: TokenAuthenticator, options: TokenCacheOptions): TokenAuthenticator {
  const clock = options.clock ?? systemClock;
  // The system clock's time without a Date per lookup; an injected clock is asked as it is.
  const nowMs = clock === systemClock ? Date.now : () => clock.now().getTime();
  const maxEntries = options.maxEntries ?? 65_536;
  // Base64, so the hashed text is plain ASCII; a one-shot hash costs a quarter of an HMAC object.
  const secret = randomBytes(32).toString('base64');
  const entries = new Map<string, Entry>();
  const inFlight = new Map<string, Promise<TokenAuthResult>>();
  const byConnection = new WeakMap<object, ConnectionToken>();
  // The audiences part of the key of the last audience list seen (requests share the server's).
  let lastAudiences: readonly string[] | undefined;
  let lastAudiencesKey = '';

  const keyOf = (token: string, ctx: TokenRequestContext): string => {
    const connection = ctx.connection;
    // Audiences are compared by identity: only a frozen list can be.
    if (connection === undefined || !Object.isFrozen(ctx.audiences)) return digestKey(token, ctx);
    const bytes = Buffer.from(token, 'utf8');
    const last = byConnection.get(connection);
    if (
      last !== undefined &&
      last.audiences === ctx.audiences &&
      last.token.length === bytes.length &&
      timingSafeEqual(last.token, bytes)
    ) {
      return last.key;
    }
    const key = digestKey(token, ctx);
    // A buffer of its own: a slice of Node's shared pool would keep the whole pool alive.
    const kept = Buffer.allocUnsafeSlow(bytes.length);
    bytes.copy(kept);
    byConnection.set(connection, { token: kept, audiences: ctx.audiences, key });
    return key;
  };

  const digestKey = (token: string, ctx: TokenRequestContext): string => {
    let audiencesKey = lastAudiencesKey;
    if (ctx.audiences !== lastAudiences) {
      audiencesKey = '';
      for (const a of ctx.audiences) audiencesKey += `${a.length}:${a}`;
      // Only a frozen list is remembered: a list that may change later must be read again.
      if (Object.isFrozen(ctx.audiences)) {
        lastAudiences = ctx.audiences;
        lastAudiencesKey = audiencesKey;
      }
    }
    // The secret has a fixed length and each audience its length: no two inputs share a text.
    return hash('sha256', `${secret}${audiencesKey}\0${token}`, 'base64');
  };

  const remember = (key: string, result: TokenAuthResult): void => {
    if (result.kind === 'error' && options.cacheErrors === false) return;
    const ttl = result.kind === 'user' ? options.successTtlMs : options.failureTtlMs;
    if (ttl <= 0) return;
    if (entries.size >= maxEntries) {
      const oldest = entries.keys().next().value;
      if (oldest !== undefined) entries.delete(oldest);
    }
    entries.set(key, { result, expiresAt: nowMs() + ttl });
  };

  return {
    authenticateToken(token, ctx) {
      const key = keyOf(token, ctx);
      const hit = entries.get(key);
      if (hit !== undefined) {
        if (hit.expiresAt > nowMs()) return hit.result;
        entries.delete(key);
      }
      const pending = inFlight.get(key);
      if (pending !== undefined) return pending;
      const answer = inner.authenticateToken(token, ctx);
      if (!(answer instanceof Promise)) {
        remember(key, answer);
        return answer;
      }
      const p = answer.then(
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

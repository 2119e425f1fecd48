import type { Authenticator, AuthResult, RequestHead } from './authenticator.js';
import { NO_OPINION } from './authenticator.js';
import type { TokenAuthenticator, TokenAuthResult, TokenRequestContext } from './token-authenticator.js';

/** kube-apiserver's text when a bearer token is recognised by nobody. */
export const INVALID_BEARER_TOKEN = 'invalid bearer token';

export interface BearerTokenOptions {
  /** The server's own audiences (`--api-audiences`), required of every token a request carries. */
  readonly audiences: readonly string[];
}

/**
 * Reads `Authorization: Bearer <token>` (scheme case-insensitive; anything else, or an empty token,
 * is `no-opinion`) and hands the token to `tokens`. A token nobody accepts is an `error`, so the
 * request gets 401 and never falls through to anonymous.
 */
export function bearerTokenAuthenticator(tokens: TokenAuthenticator, options: BearerTokenOptions): Authenticator {
  const audiences = Object.freeze([...options.audiences]);
  return {
    authenticate(req: RequestHead): AuthResult | Promise<AuthResult> {
      const token = bearerToken(req.headers.authorization);
      if (token === undefined) return NO_OPINION;
      const r = tokens.authenticateToken(token, new HeadTokenContext(req.audiences ?? audiences, req));
      return r instanceof Promise ? r.then(requestResult) : requestResult(r);
    },
  } satisfies Authenticator;
}

/** A token's context whose signal is the request's, read only when an authenticator waits. */
class HeadTokenContext implements TokenRequestContext {
  constructor(
    readonly audiences: readonly string[],
    private readonly head: RequestHead,
  ) {}

  get signal(): AbortSignal {
    return this.head.signal;
  }

  get connection(): object | undefined {
    return this.head.connection;
  }
}

function requestResult(r: TokenAuthResult): AuthResult {
  // The token cache hands out one result object per token: pass it on as it is, so layers
  // that remember per result (system:authenticated, RBAC subject keys) hit their caches.
  if (r.kind === 'user') return r;
  return { kind: 'error', message: r.kind === 'error' ? r.message : INVALID_BEARER_TOKEN };
}

const BEARER = 'bearer';

/** The token of an `Authorization` header value, as kube-apiserver splits it (`Bearer <token>[ ...]`). */
export function bearerToken(header: string | string[] | undefined): string | undefined {
  if (typeof header !== 'string') return undefined;
  const value = header.trim();
  // kube: `SplitN(value, " ", 3)`, the scheme compared case-insensitively, the second part the token.
  const space = value.indexOf(' ');
  if (space !== BEARER.length) return undefined;
  const scheme = value.slice(0, space);
  if (scheme !== 'Bearer' && scheme.toLowerCase() !== BEARER) return undefined;
  const end = value.indexOf(' ', space + 1);
  const token = end < 0 ? value.slice(space + 1) : value.slice(space + 1, end);
  return token === '' ? undefined : token;
}

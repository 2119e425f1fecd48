import type { UserInfo } from './authenticator.js';

/** What a token authenticator may know of the request a token came with. */
export interface TokenRequestContext {
  /**
   * Audiences the token must be valid for: the server's own (`--api-audiences`, by default the
   * service-account issuer) for a request, or a TokenReview's `spec.audiences`. A token must carry
   * at least one of them; authenticators that know no audiences accept a token only when these
   * overlap the server's own (see {@link audienceAgnostic}).
   */
  readonly audiences: readonly string[];
  /**
   * Aborted when the client goes away; created on first read (reading it costs a cached GET
   * measurably), so only authenticators that wait on the network read it.
   */
  readonly signal: AbortSignal;
  /**
   * The identity of the request's transport connection (see `RequestHead.connection`); absent
   * for tokens not sent by a client (TokenReview).
   */
  readonly connection?: object | undefined;
}

/**
 * Outcome of one token authenticator: `user` ends the search (with the audiences the token is valid
 * for, a subset of the requested ones); `no-opinion` means the token is not of this authenticator's
 * kind (another issuer, another format); `error` means it is, but it is invalid (expired, bad
 * signature, revoked). Messages never contain the token.
 */
export type TokenAuthResult =
  | { readonly kind: 'user'; readonly user: UserInfo; readonly audiences?: readonly string[] }
  | { readonly kind: 'no-opinion' }
  | { readonly kind: 'error'; readonly message: string };

/**
 * Authenticates a bearer token (kube-apiserver's `authenticator.Token`). Must not throw for a bad
 * token (return `error`), must not keep the token beyond a cache entry, and may be called
 * concurrently.
 */
export interface TokenAuthenticator {
  /** The result itself when known at once (a cache hit, a static token), else a promise of it. */
  authenticateToken(token: string, ctx: TokenRequestContext): TokenAuthResult | Promise<TokenAuthResult>;
}

export const TOKEN_NO_OPINION: TokenAuthResult = Object.freeze({ kind: 'no-opinion' as const });

/**
 * Tries `authenticators` in order; the first `user` wins; otherwise the errors joined with ", "
 * (in order), or `no-opinion` when none recognised the token.
 */
export function unionTokenAuthenticator(authenticators: readonly TokenAuthenticator[]): TokenAuthenticator {
  const list = [...authenticators];
  if (list.length === 1) return list[0] as TokenAuthenticator;
  return {
    async authenticateToken(token, ctx) {
      const errors: string[] = [];
      for (const a of list) {
        const r = await a.authenticateToken(token, ctx);
        if (r.kind === 'user') return r;
        if (r.kind === 'error') errors.push(r.message);
      }
      return errors.length === 0 ? TOKEN_NO_OPINION : { kind: 'error', message: errors.join(', ') };
    },
  } satisfies TokenAuthenticator;
}

/**
 * For authenticators whose tokens carry no audience (static token file, bootstrap tokens, a webhook
 * without audiences): such a token is valid for the server's own audiences only. A request for
 * other audiences gets `no-opinion`; a success reports the requested audiences that are the
 * server's, or the server's own when none were requested (kube-apiserver's
 * `WrapAudienceAgnosticToken`).
 */
export function audienceAgnostic(implicit: readonly string[], inner: TokenAuthenticator): TokenAuthenticator {
  const own = new Set(implicit);
  return {
    authenticateToken(token, ctx) {
      let audiences: readonly string[] = implicit;
      if (ctx.audiences.length > 0 && own.size > 0) {
        audiences = ctx.audiences.filter((a) => own.has(a));
        if (audiences.length === 0) return TOKEN_NO_OPINION;
      }
      const withAudiences = (r: TokenAuthResult): TokenAuthResult =>
        r.kind === 'user' ? { kind: 'user', user: r.user, audiences } : r;
      const r = inner.authenticateToken(token, ctx);
      return r instanceof Promise ? r.then(withAudiences) : withAudiences(r);
    },
  } satisfies TokenAuthenticator;
}

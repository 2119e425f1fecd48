import type { Authenticator, RequestHead, UserInfo } from './authenticator.js';

/** What reviewing a token found: TokenReview's `status`, before it is written out. */
export interface TokenReviewOutcome {
  readonly authenticated: boolean;
  readonly user?: UserInfo;
  /** The requested audiences the token is valid for. */
  readonly audiences?: readonly string[];
  readonly error?: string;
}

/**
 * Authenticates `token` as if a request had carried it alone (`Authorization: Bearer`), with
 * the server's whole authenticator chain, for the given audiences (kube-apiserver's TokenReview).
 * The token is used for this call only.
 */
export async function reviewToken(
  authenticator: Authenticator,
  token: string,
  audiences: readonly string[],
  signal: AbortSignal,
): Promise<TokenReviewOutcome> {
  const headers = { authorization: `Bearer ${token}` };
  const head: RequestHead = {
    method: 'POST',
    url: '/',
    headers,
    headerValues: (name) => (name.toLowerCase() === 'authorization' ? [headers.authorization] : []),
    peerCertificate: undefined,
    signal,
    audiences: audiences.length > 0 ? audiences : undefined,
  };
  const r = await authenticator.authenticate(head);
  if (r.kind === 'user') return { authenticated: true, user: r.user, audiences: r.audiences };
  return { authenticated: false, error: r.kind === 'error' ? r.message : undefined };
}

import { AnonymousAuthenticator, type AnonymousAuthenticatorOptions } from './anonymous-authenticator.js';
import { authenticatedGroupAdder } from './authenticated-group-adder.js';
import type { Authenticator } from './authenticator.js';
import { unionAuthenticator } from './union-authenticator.js';

export interface RequestAuthenticatorOptions {
  /** Credential authenticators (x509, tokens, ...), tried in order. */
  readonly authenticators: readonly Authenticator[];
  /** Anonymous fallback; `false` disables it (`--anonymous-auth=false`). Default enabled. */
  readonly anonymous?: false | AnonymousAuthenticatorOptions;
}

/**
 * The authenticator the authentication filter uses, composed as kube-apiserver does:
 * `failOnError(groupAdder(union(authenticators)), anonymous)`. A request with a valid credential gets its user
 * plus `system:authenticated`; an invalid credential is an `error` (401) even though anonymous is enabled; a
 * request without credentials is `system:anonymous` (or `no-opinion` when anonymous is disabled, also a 401).
 */
export function buildRequestAuthenticator(options: RequestAuthenticatorOptions): Authenticator {
  const authenticated = authenticatedGroupAdder(unionAuthenticator(options.authenticators));
  if (options.anonymous === false) return authenticated;
  const anonymous = new AnonymousAuthenticator(options.anonymous ?? {});
  // failOnError(authenticated, anonymous), without a second union on the hot path.
  return {
    authenticate(req) {
      const r = authenticated.authenticate(req);
      if (r instanceof Promise)
        return r.then((settled) => (settled.kind === 'no-opinion' ? anonymous.authenticate(req) : settled));
      return r.kind === 'no-opinion' ? anonymous.authenticate(req) : r;
    },
  } satisfies Authenticator;
}

export { AnonymousAuthenticator, type AnonymousAuthenticatorOptions } from './anonymous-authenticator.js';
export { authenticatedGroupAdder } from './authenticated-group-adder.js';
export type { AuthenticationConfiguration } from './authentication-config/types.js';
export { AuthenticationConfigError } from './authentication-config-error.js';
export type { AuthenticationOptions, OidcOptions } from './authentication-options.js';
export {
  ANONYMOUS_USER,
  AUTHENTICATED_GROUP,
  type Authenticator,
  type AuthResult,
  NO_OPINION,
  type PeerCertificate,
  type RequestHead,
  type RequestHeaders,
  UNAUTHENTICATED_GROUP,
  type UserInfo,
} from './authenticator.js';
export {
  type BearerTokenOptions,
  bearerToken,
  bearerTokenAuthenticator,
  INVALID_BEARER_TOKEN,
} from './bearer-token-authenticator.js';
export { cachedTokenAuthenticator, type TokenCacheOptions } from './cached-token-authenticator.js';
export { buildRequestAuthenticator, type RequestAuthenticatorOptions } from './request-authenticator.js';
export {
  audienceAgnostic,
  TOKEN_NO_OPINION,
  type TokenAuthenticator,
  type TokenAuthResult,
  type TokenRequestContext,
  unionTokenAuthenticator,
} from './token-authenticator.js';
export { reviewToken, type TokenReviewOutcome } from './token-review.js';
export { type UnionOptions, unionAuthenticator } from './union-authenticator.js';
export { CREDENTIAL_ID_KEY, X509Authenticator, type X509AuthenticatorOptions } from './x509-authenticator.js';

import { publicJwk, type VerificationKey } from './service-account-keys.js';

/** Where the OpenID provider configuration is served. */
export const OPENID_CONFIGURATION_PATH = '/.well-known/openid-configuration';
/** Where the key set is served. */
export const JWKS_PATH = '/openid/v1/jwks';

/** The two documents of service-account issuer discovery, rendered once. */
export interface IssuerDiscoveryDocuments {
  /** `/.well-known/openid-configuration` (application/json). */
  readonly configuration: string;
  /** `/openid/v1/jwks` (application/jwk-set+json). */
  readonly jwks: string;
}

/** Why the documents cannot be served; kube-apiserver logs it and serves neither. */
export class IssuerDiscoveryError extends Error {
  override readonly name = 'IssuerDiscoveryError';
}

/**
 * kube-apiserver's pre-rendered issuer discovery documents: the configuration names the issuer,
 * `jwks_uri` (`https://<external address>/openid/v1/jwks`), `response_types_supported`
 * `["id_token"]`, `subject_types_supported` `["public"]` and the sorted algorithms of the keys;
 * the key set holds every public key (`use: sig`, kube's `kid`). The issuer must be an https URL
 * without a query.
 * @throws IssuerDiscoveryError with kube's message otherwise.
 */
export function issuerDiscoveryDocuments(
  issuer: string,
  externalAddress: string,
  keys: readonly VerificationKey[],
): IssuerDiscoveryDocuments {
  let url: URL;
  try {
    url = new URL(issuer);
  } catch {
    throw new IssuerDiscoveryError(`issuer URL must use https scheme, got: ${issuer}`);
  }
  if (url.protocol !== 'https:') throw new IssuerDiscoveryError(`issuer URL must use https scheme, got: ${issuer}`);
  if (url.search !== '') throw new IssuerDiscoveryError(`issuer URL may not include a query, got: ${issuer}`);
  const algorithms = [...new Set(keys.map((k) => k.alg))].sort();
  const configuration = JSON.stringify({
    issuer,
    jwks_uri: `https://${externalAddress}${JWKS_PATH}`,
    response_types_supported: ['id_token'],
    subject_types_supported: ['public'],
    id_token_signing_alg_values_supported: algorithms,
  });
  const jwks = JSON.stringify({ keys: keys.map(publicJwk) });
  return { configuration, jwks };
}

import { apiErrors } from '../apis/meta/status.js';
import {
  type IssuerDiscoveryDocuments,
  IssuerDiscoveryError,
  issuerDiscoveryDocuments,
  JWKS_PATH,
  OPENID_CONFIGURATION_PATH,
} from '../authn/service-account/issuer-discovery.js';
import type { ServiceAccountTokenConfig } from '../authn/service-account/service-account-config.js';
import type { ApiRequest, BodyResponse } from '../endpoints/handler.js';
import { errorResponse } from '../endpoints/handlers/response-writer.js';
import type { Logger } from '../util/logger.js';

/** kube-apiserver lets clients and proxies cache the documents for an hour. */
const CACHE_CONTROL = 'public, max-age=3600';

/**
 * The issuer discovery documents of the first issuer, or undefined (logged, as kube-apiserver
 * does) when they cannot be served: no service-account tokens, or an issuer that is not an https
 * URL without a query.
 */
export function serviceAccountIssuerDocuments(
  config: ServiceAccountTokenConfig | undefined,
  externalAddress: string,
  logger: Logger,
): IssuerDiscoveryDocuments | undefined {
  if (!config) return undefined;
  try {
    return issuerDiscoveryDocuments(config.issuers[0] as string, externalAddress, config.publicKeys);
  } catch (e) {
    if (!(e instanceof IssuerDiscoveryError)) throw e;
    logger.error(
      `Could not construct pre-rendered responses for ServiceAccountIssuerDiscovery endpoints. Endpoints will not be enabled. Error: ${e.message}`,
    );
    return undefined;
  }
}

/**
 * `GET /.well-known/openid-configuration` (application/json) and `GET /openid/v1/jwks`
 * (application/jwk-set+json), both `Cache-Control: public, max-age=3600`; other methods are 405
 * (kube registers GET only).
 * Undefined for any other path.
 */
export function serviceAccountIssuerHandler(
  docs: IssuerDiscoveryDocuments,
): (req: ApiRequest) => BodyResponse | undefined {
  return (req) => {
    let body: string;
    let contentType: string;
    if (req.path === OPENID_CONFIGURATION_PATH) {
      body = docs.configuration;
      contentType = 'application/json';
    } else if (req.path === JWKS_PATH) {
      body = docs.jwks;
      contentType = 'application/jwk-set+json';
    } else {
      return undefined;
    }
    if (req.method !== 'GET') return errorResponse(req, apiErrors.methodNotAllowed(req.method));
    return {
      kind: 'body',
      status: 200,
      headers: { 'content-type': contentType, 'cache-control': CACHE_CONTROL },
      body,
    };
  };
}

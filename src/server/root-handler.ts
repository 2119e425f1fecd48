import { apiErrors } from '../apis/meta/status.js';
import type { ApiRequest, ApiResponse, Handler } from '../endpoints/handler.js';
import { errorResponse } from '../endpoints/handlers/response-writer.js';
import type { HealthGroup, HealthRegistry } from './health/health-registry.js';

/** Serves everything that is not a resource request: health, discovery, OpenAPI and the index. */
export interface NonResourceRoutes {
  readonly health: HealthRegistry;
  readonly openapi: (req: ApiRequest) => ApiResponse | undefined;
  readonly discovery: (req: ApiRequest) => ApiResponse | undefined;
  /** Service-account issuer discovery (`/.well-known/openid-configuration`, `/openid/v1/jwks`), when served. */
  readonly serviceAccountIssuer?: (req: ApiRequest) => ApiResponse | undefined;
  /** `/` and `/index.html`: the listed paths. */
  readonly index?: (req: ApiRequest) => ApiResponse | undefined;
  /** `/metrics`, when served. */
  readonly metrics?: (req: ApiRequest) => Promise<ApiResponse> | undefined;
}

const HEALTH_PATH = /^\/(healthz|livez|readyz)(\/.+)?$/;

/**
 * The innermost handler: health endpoints, resources, metrics, discovery, OpenAPI, issuer discovery; anything
 * else is a 404 `Status`.
 */
export function rootHandler(routes: NonResourceRoutes, resources: Handler): Handler {
  const health = async (req: ApiRequest, path: RegExpExecArray): Promise<ApiResponse> => {
    if (req.method !== 'GET' && req.method !== 'HEAD')
      return errorResponse(req, apiErrors.methodNotAllowed(req.method));
    const r = await routes.health.handleHealthRequest(path[1] as HealthGroup, path[2] ?? '', req.query, req.signal);
    return { kind: 'body', status: r.status, headers: { ...r.headers }, body: r.body };
  };
  // Not async: a resource handler's answer given at once passes through as it is. Resource paths
  // (`/api/...`, `/apis/...`) are never health paths, so they are tried first.
  return (req) => {
    if (req.info?.isResourceRequest) return resources(req);
    const healthPath = HEALTH_PATH.exec(req.path);
    if (healthPath) return health(req, healthPath);
    const metrics = routes.metrics?.(req);
    if (metrics) return metrics;
    const doc =
      routes.discovery(req) ?? routes.openapi(req) ?? routes.serviceAccountIssuer?.(req) ?? routes.index?.(req);
    if (doc) return doc;
    return errorResponse(req, apiErrors.pathNotFound());
  };
}

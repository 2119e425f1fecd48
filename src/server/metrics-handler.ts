import type { Registry } from 'prom-client';
import { apiErrors } from '../apis/meta/status.js';
import type { ApiRequest, ApiResponse } from '../endpoints/handler.js';
import { errorResponse } from '../endpoints/handlers/response-writer.js';

/**
 * `GET /metrics`: the registry in Prometheus text format (authorized like any non-resource URL:
 * `system:monitoring` may read it). Undefined for other paths.
 */
export function metricsHandler(registry: Registry): (req: ApiRequest) => Promise<ApiResponse> | undefined {
  return (req) => {
    if (req.path !== '/metrics') return undefined;
    if (req.method !== 'GET' && req.method !== 'HEAD')
      return Promise.resolve(errorResponse(req, apiErrors.methodNotAllowed(req.method)));
    return registry.metrics().then((text) => ({
      kind: 'body',
      status: 200,
      headers: { 'content-type': registry.contentType },
      body: req.method === 'HEAD' ? '' : text,
    }));
  };
}

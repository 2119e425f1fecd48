import { apiErrors } from '../apis/meta/status.js';
import { buildOpenApiV2, buildOpenApiV3Documents, buildOpenApiV3Root } from '../apis/openapi/documents.js';
import type { ResourceDefinition } from '../apis/resource-definition.js';
import type { ApiRequest, ApiResponse } from '../endpoints/handler.js';
import { errorResponse } from '../endpoints/handlers/response-writer.js';
import { openApiV2Responder } from './openapi-v2-response.js';

const YEAR_MS = 365 * 24 * 3600 * 1000;

function acceptsJson(accept: string | undefined): boolean {
  if (!accept) return true;
  return accept.split(',').some((r) => {
    const t = r.split(';')[0].trim();
    return t === 'application/json' || t === '*/*' || t === 'application/*';
  });
}

/**
 * `/openapi/v2` (JSON or protobuf, see {@link openApiV2Responder}) and
 * `/openapi/v3[/<group-version>]`, built once from the served definitions.
 * Group-version documents are immutable per hash: a request with the current hash is
 * cacheable for a year; a stale hash redirects to the current URL, as kube-apiserver does.
 */
export function openApiHandler(defs: readonly ResourceDefinition[]): (req: ApiRequest) => ApiResponse | undefined {
  const v2 = openApiV2Responder(() => buildOpenApiV2(defs));
  const v3Docs = buildOpenApiV3Documents(defs);
  const v3Root = JSON.stringify(buildOpenApiV3Root(defs));
  return (req) => {
    if (!req.path.startsWith('/openapi/')) return undefined;
    if (req.method !== 'GET' && req.method !== 'HEAD')
      return errorResponse(req, apiErrors.methodNotAllowed(req.method));
    if (req.path === '/openapi/v2') return v2(req);
    if (!acceptsJson(req.headers.accept)) return errorResponse(req, apiErrors.notAcceptable(['application/json']));
    if (req.path === '/openapi/v3' || req.path === '/openapi/v3/') {
      return { kind: 'body', status: 200, headers: { 'content-type': 'application/json' }, body: v3Root };
    }
    if (!req.path.startsWith('/openapi/v3/')) return undefined;
    const doc = v3Docs.get(req.path.slice('/openapi/v3/'.length).replace(/\/+$/, ''));
    if (!doc) return undefined;
    const hash = req.query.get('hash');
    if (hash && hash !== doc.hash) {
      return {
        kind: 'body',
        status: 301,
        headers: { location: `/openapi/v3/${doc.path}?hash=${doc.hash}`, 'content-type': 'text/plain' },
        body: '',
      };
    }
    const headers: Record<string, string> = {
      'content-type': 'application/json',
      etag: `"${doc.hash}"`,
      vary: 'Accept',
    };
    if (hash) {
      headers['cache-control'] = 'public, immutable';
      headers.expires = new Date(Date.now() + YEAR_MS).toUTCString();
    }
    return { kind: 'body', status: 200, headers, body: doc.body };
  };
}

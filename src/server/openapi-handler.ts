import { type ApiDomain, ORCH_DOMAIN } from '../apis/api-domain.js';
import { apiErrors } from '../apis/meta/status.js';
import {
  buildOpenApiV2,
  buildOpenApiV3Documents,
  type OpenApiV3Document,
  openApiV3RootOf,
} from '../apis/openapi/documents.js';
import type { ResourceDefinition } from '../apis/resource-definition.js';
import { preferredMediaType } from '../encoding/index.js';
import type { ApiRequest, ApiResponse } from '../endpoints/handler.js';
import { errorResponse } from '../endpoints/handlers/response-writer.js';
import { openApiV2Responder } from './openapi-v2-response.js';

const YEAR_MS = 365 * 24 * 3600 * 1000;

const OFFERED = ['application/json'];

/** The served definitions as they are now; `generation` changes whenever they do. */
export interface DefinitionSource {
  all(): readonly { readonly def: ResourceDefinition }[];
  readonly generation: number;
}

/**
 * `/openapi/v2` (JSON or protobuf, see {@link openApiV2Responder}) and
 * `/openapi/v3[/<group-version>]`, built from the served definitions and rebuilt when the
 * resource set changes. Group-version documents are immutable per hash: a request with the
 * current hash is cacheable for a year; a stale hash redirects to the current URL, as
 * kube-apiserver does.
 */
export function openApiHandler(
  source: DefinitionSource,
  domain: ApiDomain = ORCH_DOMAIN,
): (req: ApiRequest) => ApiResponse | undefined {
  let builtAt = -1;
  let defs: readonly ResourceDefinition[] = [];
  let v2 = openApiV2Responder(() => buildOpenApiV2(defs, { domain }));
  let v3Docs = new Map<string, OpenApiV3Document>();
  let v3Root = '';
  const refresh = () => {
    if (builtAt === source.generation) return;
    builtAt = source.generation;
    const current = source.all().map((r) => r.def);
    defs = current;
    v2 = openApiV2Responder(() => buildOpenApiV2(current, { domain }));
    // Group versions whose definitions did not change keep their documents.
    v3Docs = buildOpenApiV3Documents(current, { domain }, v3Docs);
    v3Root = JSON.stringify(openApiV3RootOf(v3Docs));
  };
  return (req) => {
    if (req.path.startsWith('/openapi/')) refresh();
    if (!req.path.startsWith('/openapi/')) return undefined;
    if (req.method !== 'GET' && req.method !== 'HEAD')
      return errorResponse(req, apiErrors.methodNotAllowed(req.method));
    if (req.path === '/openapi/v2') return v2(req);
    if (!preferredMediaType(req.headers.accept, OFFERED))
      return errorResponse(req, apiErrors.notAcceptable(['application/json']));
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

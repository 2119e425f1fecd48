import { apiErrors } from '../../apis/meta/status.js';
import { openApiHash } from '../../apis/openapi/documents.js';
import { acceptClauseMatches, parseAccept } from '../../encoding/index.js';
import type { ResourceSet } from '../../registry/resource-set/index.js';
import type { ApiRequest, ApiResponse } from '../handler.js';
import { errorResponse } from '../handlers/response-writer.js';
import { aggregatedDiscovery, apiGroup, apiGroupList, apiResourceList, apiVersions } from './discovery-documents.js';
import { documentResponse } from './document-response.js';

const AGGREGATED_VERSIONS = ['v2', 'v2beta1'];

export interface VersionInfo {
  readonly major: string;
  readonly minor: string;
  readonly gitVersion: string;
  readonly gitCommit: string;
  readonly gitTreeState: string;
  readonly buildDate: string;
  readonly goVersion: string;
  readonly compiler: string;
  readonly platform: string;
}

/**
 * The aggregated-discovery version the client asked for in `Accept`, if any: the first clause,
 * in goautoneg order, admitting JSON with `as=APIGroupDiscoveryList;g=<discovery group>` and
 * a served `v`. As kube's discovery endpoint restrictions do, clauses without that conversion
 * are skipped rather than deciding for the legacy documents.
 */
export function wantedAggregatedVersion(accept: string | undefined, discoveryGroup: string): string | undefined {
  if (!accept) return undefined;
  for (const clause of parseAccept(accept)) {
    if (!acceptClauseMatches(clause, 'application', 'json')) continue;
    const { as, g, v } = clause.params;
    if (as === 'APIGroupDiscoveryList' && g === discoveryGroup && AGGREGATED_VERSIONS.includes(v)) return v;
  }
  return undefined;
}

/**
 * Serves `/api`, `/api/v1`, `/apis`, `/apis/<group>`, `/apis/<group>/<version>` and
 * `/version`; returns undefined for any other path.
 */
export function discoveryHandler(opts: {
  resources: ResourceSet;
  version: VersionInfo;
  serverAddress: () => string;
}): (req: ApiRequest) => ApiResponse | undefined {
  const { resources } = opts;
  // Aggregated documents and their ETags, for the resource set's current generation only.
  let cachedAt = -1;
  const aggregatedCache = new Map<string, { doc: unknown; etag: string }>();
  const aggregatedOf = (legacy: boolean, groupVersion: string) => {
    if (cachedAt !== resources.generation) {
      aggregatedCache.clear();
      cachedAt = resources.generation;
    }
    const key = `${legacy}|${groupVersion}`;
    let entry = aggregatedCache.get(key);
    if (!entry) {
      const doc = aggregatedDiscovery(resources, legacy, groupVersion);
      entry = { doc, etag: `"${openApiHash(JSON.stringify(doc))}"` };
      aggregatedCache.set(key, entry);
    }
    return entry;
  };
  return (req) => {
    const path = req.path.replace(/\/+$/, '') || '/';
    const parts = path.split('/').filter(Boolean);
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      if (path === '/version' || parts[0] === 'api' || parts[0] === 'apis') {
        if (parts.length <= (parts[0] === 'apis' ? 3 : 2))
          return errorResponse(req, apiErrors.methodNotAllowed(req.method));
      }
      return undefined;
    }
    if (path === '/version') return documentResponse(req, 200, opts.version);
    const vary = { vary: 'Accept' };
    if (path === '/api' || path === '/apis') {
      const legacy = path === '/api';
      const aggregated = wantedAggregatedVersion(req.headers.accept, req.domain.discoveryGroup);
      if (aggregated) {
        // The ETag changes with the resource set: clients revalidate with If-None-Match.
        const { doc, etag } = aggregatedOf(legacy, `${req.domain.discoveryGroup}/${aggregated}`);
        if (req.headers['if-none-match'] === etag) {
          return { kind: 'body', status: 304, headers: { etag, vary: 'Accept' }, body: '' };
        }
        const r = documentResponse(req, 200, doc, vary);
        return {
          ...r,
          headers: {
            ...r.headers,
            etag,
            'content-type': `application/json;g=${req.domain.discoveryGroup};v=${aggregated};as=APIGroupDiscoveryList`,
          },
        };
      }
      return documentResponse(req, 200, legacy ? apiVersions(opts.serverAddress()) : apiGroupList(resources), vary);
    }
    if (parts[0] === 'api' && parts.length === 2) {
      const doc = apiResourceList(resources, '', parts[1]);
      return doc ? documentResponse(req, 200, doc) : undefined;
    }
    if (parts[0] === 'apis' && parts.length === 2) {
      const doc = apiGroup(resources, parts[1]);
      return doc ? documentResponse(req, 200, doc) : undefined;
    }
    if (parts[0] === 'apis' && parts.length === 3) {
      const doc = apiResourceList(resources, parts[1], parts[2]);
      return doc ? documentResponse(req, 200, doc) : undefined;
    }
    return undefined;
  };
}

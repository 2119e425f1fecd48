import type { Filter, ResponseHeaders } from '../../endpoints/handler.js';

const NO_CACHE = 'no-cache, private';

function hasCacheControl(headers: ResponseHeaders): boolean {
  for (const name in headers) if (name.toLowerCase() === 'cache-control') return true;
  return false;
}

/**
 * kube-apiserver's `WithCacheControl`: every response, errors included, carries
 * `Cache-Control: no-cache, private` unless its handler chose its own (immutable OpenAPI
 * documents). Put it outside every filter that may answer on its own.
 */
export function cacheControl(): Filter {
  return (next) => async (req) => {
    const res = await next(req);
    if (hasCacheControl(res.headers)) return res;
    return { ...res, headers: { ...res.headers, 'cache-control': NO_CACHE } };
  };
}

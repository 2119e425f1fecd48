import { parseRequestInfo, type RequestInfo } from './request-info.js';

/** Verbs whose request info depends on the query (list or watch, selectors): never cached. */
const QUERY_VERBS = new Set(['list', 'watch', 'deletecollection']);

/**
 * Remembers the request info of recent (method, path) pairs whose info the query cannot change
 * (one object, or a non-resource path), so a client polling an object does not parse its path
 * again. Cached infos are frozen and shared by every request of that path. At most `maxEntries`
 * paths are kept; when full, the cache starts over (a flood of distinct paths costs parsing,
 * never memory).
 */
export class RequestInfoCache {
  private readonly byMethod = new Map<string, Map<string, RequestInfo>>();
  private size = 0;

  constructor(private readonly maxEntries = 1024) {}

  /**
   * The request info of `method path?query`, as `parseRequestInfo` gives it.
   * @throws RequestInfoError as `parseRequestInfo` does.
   */
  resolve(method: string, path: string, query: URLSearchParams): RequestInfo {
    let paths = this.byMethod.get(method);
    const hit = paths?.get(path);
    if (hit !== undefined) return hit;
    const info = parseRequestInfo(method, path, query);
    if (info.isResourceRequest && QUERY_VERBS.has(info.verb)) return info;
    if (this.size >= this.maxEntries) {
      this.byMethod.clear();
      this.size = 0;
      paths = undefined;
    }
    if (paths === undefined) {
      paths = new Map();
      this.byMethod.set(method, paths);
    }
    Object.freeze(info.parts);
    paths.set(path, Object.freeze(info));
    this.size++;
    return info;
  }
}

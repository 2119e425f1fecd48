import type { ApiPrefix, RequestInfo } from '../../apis/request/request-info.js';
import { exactNameFromFieldSelector, parseFieldSelector } from '../../apis/selectors/field-selector.js';

export type { ApiPrefix, RequestInfo };

/**
 * The path has the shape of a resource request but names no resource after a special verb
 * (`/api/v1/watch`). `info` holds what was known before the failure; kube answers 500.
 */
export class RequestInfoError extends Error {
  readonly code = 'UnresolvableRequest' as const;
  constructor(
    message: string,
    readonly info: RequestInfo,
  ) {
    super(message);
    this.name = 'RequestInfoError';
  }
}

/** Prefixes that replace the verb; `proxy` takes no sub-resource, everything after the name is its path. */
const SPECIAL_VERBS = new Set(['proxy', 'watch']);
const SPECIAL_VERBS_WITHOUT_SUBRESOURCES = new Set(['proxy']);
/** `namespaces/<ns>/<x>` is a sub-resource of the namespace for these, a namespaced resource otherwise. */
const NAMESPACE_SUBRESOURCES = new Set(['status', 'finalize']);
const VERBS_WITH_SELECTORS = new Set(['list', 'watch', 'deletecollection']);

const METHOD_VERBS: Readonly<Record<string, string>> = {
  POST: 'create',
  GET: 'get',
  HEAD: 'get',
  PUT: 'update',
  PATCH: 'patch',
  DELETE: 'delete',
};

const SLASH = 0x2f;
const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;

/** Trims slashes at both ends and splits; inner empty segments are kept, as kube does. */
function splitPath(path: string): string[] {
  let from = 0;
  let to = path.length;
  while (from < to && path.charCodeAt(from) === SLASH) from++;
  while (to > from && path.charCodeAt(to - 1) === SLASH) to--;
  if (from === to) return [];
  return (from === 0 && to === path.length ? path : path.slice(from, to)).split('/');
}

/** `watch` query semantics of kube's parameter conversion: absent, `0` or `false` (any case) is false. */
function watchRequested(query: URLSearchParams): boolean {
  const value = query.get('watch');
  if (value === null) return false;
  return value !== '0' && value.toLowerCase() !== 'false';
}

function isInt64(value: string): boolean {
  if (!/^[+-]?\d+$/.test(value)) return false;
  const n = BigInt(value);
  return n >= INT64_MIN && n <= INT64_MAX;
}

/**
 * Kube decodes the whole query as ListOptions before looking at the field selector and, when
 * decoding fails, ignores the selector. The integer parameters are the ones that can fail.
 */
function listOptionsDecode(query: URLSearchParams): boolean {
  for (const key of ['limit', 'timeoutSeconds']) {
    const value = query.get(key);
    if (value !== null && !isInt64(value)) return false;
  }
  return true;
}

/** Mirrors `path.IsValidPathSegmentName`: a name that could not appear as a path segment is not adopted. */
function isValidPathSegmentName(name: string): boolean {
  return name !== '.' && name !== '..' && !name.includes('/') && !name.includes('%');
}

function describeUrl(path: string, query: URLSearchParams): string {
  const q = query.toString();
  return q ? `${path}?${q}` : path;
}

/**
 * Classifies a request the way kube-apiserver's RequestInfoFactory does, with prefixes `api`
 * (groupless) and `apis`. Pure and synchronous.
 *
 * Resource requests are `/api/<version>/<rest>` and `/apis/<group>/<version>/<rest>`, where `<rest>`
 * may start with a special verb (`watch/`, `proxy/`), then optionally `namespaces/<ns>/`, then
 * `<resource>[/<name>[/<subresource>[/...]]]`. Everything shorter (`/api`, `/api/v1`, `/apis/<group>`,
 * `/apis/<group>/<version>`) or under another root (`/healthz`, `/version`, `/openapi/v2`) is a
 * non-resource request whose verb is the lower-cased method.
 *
 * Verbs: POST create, PUT update, PATCH patch; GET/HEAD get with a name, else watch when the
 * `watch` parameter is present and not `0`/`false`, else list; DELETE delete with a name, else
 * deletecollection. For list and watch, a `fieldSelector` requiring `metadata.name=<n>` sets `name`.
 *
 * @throws RequestInfoError when a special verb is followed by nothing (`/api/v1/watch`).
 */
export function parseRequestInfo(method: string, path: string, query: URLSearchParams): RequestInfo {
  const all = splitPath(path);
  if (all.length < 3) return nonResourceInfo(method, path, '');
  const first = all[0];
  if (first !== 'api' && first !== 'apis') return nonResourceInfo(method, path, '');
  const prefix: ApiPrefix = first;
  // `at` is where the segments not yet consumed begin; `parts` is cut once at the end.
  let at = 1;

  let apiGroup = '';
  if (prefix === 'apis') {
    // A named group needs group, version and at least one more segment.
    if (all.length - at < 3) return nonResourceInfo(method, path, prefix);
    apiGroup = all[at] as string;
    at++;
  }
  const apiVersion = all[at] as string;
  at++;

  let verb: string;
  const verbFromPath = SPECIAL_VERBS.has(all[at] as string);
  if (verbFromPath) {
    verb = all[at] as string;
    if (all.length - at < 2) {
      throw new RequestInfoError(`unable to determine kind and namespace from url, ${describeUrl(path, query)}`, {
        ...nonResourceInfo(method, path, prefix),
        isResourceRequest: true,
        apiGroup,
        apiVersion,
        verb,
      });
    }
    at++;
  } else {
    verb = METHOD_VERBS[method] ?? '';
  }

  let namespace = '';
  if (all[at] === 'namespaces' && all.length - at > 1) {
    namespace = all[at + 1] as string;
    // `namespaces/<ns>/status` addresses the namespace itself; `namespaces/<ns>/pods` a resource in it.
    if (all.length - at > 2 && !NAMESPACE_SUBRESOURCES.has(all[at + 2] as string)) at += 2;
  }
  const parts = all.slice(at);

  const resource = parts[0] ?? '';
  let name = parts.length >= 2 ? (parts[1] as string) : '';
  const subresource = parts.length >= 3 && !SPECIAL_VERBS_WITHOUT_SUBRESOURCES.has(verb) ? (parts[2] as string) : '';

  if (name === '' && verb === 'get') {
    verb = watchRequested(query) ? 'watch' : 'list';
    const selector = query.get('fieldSelector');
    if (selector !== null && listOptionsDecode(query)) {
      const selected = pinnedName(selector);
      if (selected !== undefined && isValidPathSegmentName(selected)) name = selected;
    }
  }
  if (name === '' && verb === 'delete') verb = 'deletecollection';

  // The path-prefix watch exists in single-object and collection forms and only the latter honours
  // selectors, so selectors are not reported for it at all.
  const selectorsApply = !verbFromPath && VERBS_WITH_SELECTORS.has(verb);

  return {
    isResourceRequest: true,
    path,
    verb,
    apiPrefix: prefix,
    apiGroup,
    apiVersion,
    namespace,
    resource,
    subresource,
    name,
    parts,
    fieldSelector: selectorsApply ? (query.get('fieldSelector') ?? '') : '',
    labelSelector: selectorsApply ? (query.get('labelSelector') ?? '') : '',
  };
}

/** The request info of a non-resource request (or of what was known before a failure). */
function nonResourceInfo(method: string, path: string, apiPrefix: ApiPrefix): RequestInfo {
  return {
    isResourceRequest: false,
    path,
    verb: method.toLowerCase(),
    apiPrefix,
    apiGroup: '',
    apiVersion: '',
    namespace: '',
    resource: '',
    subresource: '',
    name: '',
    parts: [],
    fieldSelector: '',
    labelSelector: '',
  };
}

/** The name a field selector pins with `metadata.name=<n>`; none when it does not parse. */
function pinnedName(selector: string): string | undefined {
  try {
    return exactNameFromFieldSelector(parseFieldSelector(selector));
  } catch {
    return undefined;
  }
}

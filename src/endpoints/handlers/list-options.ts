import { apiErrors } from '../../apis/meta/status.js';
import { checkListOptions } from '../../registry/generic/list-options-validation.js';
import type { ListOptions, WatchOptions } from '../../registry/types.js';
import type { ApiRequest } from '../handler.js';

function optional(q: URLSearchParams, name: string): string | undefined {
  const v = q.get(name);
  return v === null ? undefined : v;
}

function booleanParam(q: URLSearchParams, name: string): boolean | undefined {
  const v = q.get(name);
  if (v === null) return undefined;
  if (v === '' || v === 'true' || v === '1') return true;
  if (v === 'false' || v === '0') return false;
  throw apiErrors.badRequest(`invalid value for ${name}: "${v}": must be a boolean`);
}

/**
 * List options from the query of a list, watch or deletecollection. Number formats are checked
 * here, and the combination of options as kube's handlers do before anything else (422 listing
 * every error); resourceVersion and continue semantics are the registry's.
 */
export function listOptionsOf(req: ApiRequest, watchListEnabled: boolean): ListOptions {
  const opts = parseListOptions(req);
  const watch = req.info?.verb === 'watch';
  checkListOptions(
    { ...opts, sendInitialEvents: booleanParam(req.query, 'sendInitialEvents') },
    { watch, watchListEnabled, metaGroup: req.domain.metaGroup },
  );
  return opts;
}

function parseListOptions(req: ApiRequest): ListOptions {
  const q = req.query;
  const limitText = optional(q, 'limit');
  let limit: number | undefined;
  if (limitText !== undefined && limitText !== '') {
    if (!/^-?[0-9]+$/.test(limitText)) throw apiErrors.badRequest(`invalid value for limit: "${limitText}"`);
    limit = Number(limitText);
    if (limit <= 0) limit = undefined;
  }
  return {
    limit,
    continue: optional(q, 'continue') || undefined,
    resourceVersion: optional(q, 'resourceVersion'),
    resourceVersionMatch: optional(q, 'resourceVersionMatch') || undefined,
    labelSelector: optional(q, 'labelSelector') || undefined,
    fieldSelector: optional(q, 'fieldSelector') || undefined,
  };
}

export function watchOptionsOf(req: ApiRequest): Omit<WatchOptions, keyof ListOptions> {
  const q = req.query;
  const timeout = optional(q, 'timeoutSeconds');
  return {
    allowWatchBookmarks: booleanParam(q, 'allowWatchBookmarks'),
    sendInitialEvents: booleanParam(q, 'sendInitialEvents'),
    timeoutSeconds: timeout !== undefined && /^[0-9]+$/.test(timeout) ? Number(timeout) : undefined,
  };
}

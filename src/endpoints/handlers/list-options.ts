import { type FieldError, fieldErrors } from '../../apis/meta/field-error.js';
import { apiErrors, StatusError } from '../../apis/meta/status.js';
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

/** List options from the query; number formats are checked here, semantics in the registry. */
export function listOptionsOf(req: ApiRequest): ListOptions {
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

/**
 * kube's ListOptions validation of a watch while the `WatchList` gate is off: `sendInitialEvents`
 * (either value) is forbidden, a 422 listing that error after the resourceVersionMatch one kube
 * reports first. Nothing to check while the gate is on, or without `sendInitialEvents`.
 */
export function checkWatchListGate(
  o: Pick<WatchOptions, 'sendInitialEvents' | 'resourceVersionMatch'>,
  enabled: boolean,
): void {
  if (enabled || o.sendInitialEvents === undefined) return;
  const errs: FieldError[] = [];
  if (o.resourceVersionMatch !== 'NotOlderThan') {
    errs.push(
      fieldErrors.forbidden(
        'resourceVersionMatch',
        'sendInitialEvents requires setting resourceVersionMatch to NotOlderThan',
      ),
    );
  }
  errs.push(
    fieldErrors.forbidden(
      'sendInitialEvents',
      'sendInitialEvents is forbidden for watch unless the WatchList feature gate is enabled',
    ),
  );
  const e = apiErrors.invalid({ group: 'meta.orch.io', kind: 'ListOptions' }, '', errs);
  // kube leaves the empty name out of the details.
  throw new StatusError(e.code, e.reason, e.message, { ...e.details, name: undefined });
}

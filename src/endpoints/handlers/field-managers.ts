import type { FieldError } from '../../apis/meta/field-error.js';
import { apiErrors, type StatusError } from '../../apis/meta/status.js';
import { managerOrUserAgent, validateFieldManager, validatePatchFieldManager } from '../../apply/index.js';
import type { OptionsKind } from '../../encoding/index.js';
import type { ApiRequest } from '../handler.js';

/** kube answers invalid write options with 422 `<Kind>Options.<meta group> "" is invalid: …`. */
function invalidOptions(req: ApiRequest, kind: OptionsKind, errs: readonly FieldError[]): StatusError {
  return apiErrors.invalid({ group: req.domain.metaGroup, kind }, '', errs);
}

/**
 * The manager of a create or update: the `fieldManager` parameter (validated: at most 128
 * bytes, printable; else 422) or the `User-Agent` prefix.
 */
export function writeManager(req: ApiRequest, kind: 'CreateOptions' | 'UpdateOptions'): string {
  const fieldManager = req.query.get('fieldManager') ?? '';
  const errs = validateFieldManager(fieldManager);
  if (errs.length > 0) throw invalidOptions(req, kind, errs);
  return managerOrUserAgent(fieldManager, req.headers['user-agent']);
}

/**
 * The `force` parameter as kube decodes `PatchOptions.force`: absent is unset; `0` and `false`
 * (any case) are false; anything else, the empty string included, is true.
 */
export function forceParam(query: URLSearchParams): boolean | undefined {
  const v = query.get('force');
  if (v === null) return undefined;
  return !(v === '0' || v.toLowerCase() === 'false');
}

/**
 * The manager and `force` of a PATCH, checked as kube's `ValidatePatchOptions` does (422):
 * apply requires `fieldManager`, other patches may not carry `force`. A non-apply patch without
 * `fieldManager` is recorded under the `User-Agent` prefix.
 */
export function patchManager(req: ApiRequest, isApply: boolean): { manager: string; force: boolean } {
  const fieldManager = req.query.get('fieldManager') ?? undefined;
  const force = forceParam(req.query);
  const errs = validatePatchFieldManager({ isApply, fieldManager, force });
  if (errs.length > 0) throw invalidOptions(req, 'PatchOptions', errs);
  return {
    manager: isApply ? (fieldManager ?? '') : managerOrUserAgent(fieldManager, req.headers['user-agent']),
    force: force === true,
  };
}

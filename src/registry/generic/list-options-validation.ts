import { type FieldError, fieldErrors } from '../../apis/meta/field-error.js';
import { apiErrors, type StatusError } from '../../apis/meta/status.js';
import type { ListOptions } from '../types.js';

/** List options as validated: a list or a watch, with `sendInitialEvents` as sent. */
export interface ListOptionsToValidate extends ListOptions {
  readonly sendInitialEvents?: boolean;
}

const FIELD = 'resourceVersionMatch';

function validateList(o: ListOptionsToValidate): FieldError[] {
  const errs: FieldError[] = [];
  const match = o.resourceVersionMatch;
  if (match) {
    if (!o.resourceVersion) {
      errs.push(fieldErrors.forbidden(FIELD, 'resourceVersionMatch is forbidden unless resourceVersion is provided'));
    }
    if (o.continue)
      errs.push(fieldErrors.forbidden(FIELD, 'resourceVersionMatch is forbidden when continue is provided'));
    if (match !== 'Exact' && match !== 'NotOlderThan') {
      errs.push(fieldErrors.notSupported(FIELD, match, ['Exact', 'NotOlderThan', '']));
    }
    if (match === 'Exact' && o.resourceVersion === '0') {
      errs.push(fieldErrors.forbidden(FIELD, 'resourceVersionMatch "exact" is forbidden for resourceVersion "0"'));
    }
  }
  if (o.sendInitialEvents !== undefined) {
    errs.push(fieldErrors.forbidden('sendInitialEvents', 'sendInitialEvents is forbidden for list'));
  }
  return errs;
}

function validateWatch(o: ListOptionsToValidate, watchListEnabled: boolean): FieldError[] {
  const errs: FieldError[] = [];
  const match = o.resourceVersionMatch;
  if (o.sendInitialEvents !== undefined) {
    if (match !== 'NotOlderThan') {
      errs.push(
        fieldErrors.forbidden(FIELD, 'sendInitialEvents requires setting resourceVersionMatch to NotOlderThan'),
      );
    }
    if (!watchListEnabled) {
      errs.push(
        fieldErrors.forbidden(
          'sendInitialEvents',
          'sendInitialEvents is forbidden for watch unless the WatchList feature gate is enabled',
        ),
      );
    }
  }
  if (match) {
    if (o.sendInitialEvents === undefined) {
      errs.push(
        fieldErrors.forbidden(
          FIELD,
          'resourceVersionMatch is forbidden for watch unless sendInitialEvents is provided',
        ),
      );
    }
    if (match !== 'NotOlderThan') errs.push(fieldErrors.notSupported(FIELD, match, ['NotOlderThan']));
    if (o.continue)
      errs.push(fieldErrors.forbidden(FIELD, 'resourceVersionMatch is forbidden when continue is provided'));
  }
  return errs;
}

/**
 * Every error in the combination of list options, in kube's `ValidateListOptions` order and
 * wording: for a list, `resourceVersionMatch` needs a `resourceVersion`, excludes `continue`, is
 * `Exact` or `NotOlderThan` (not `Exact` with `0`), and `sendInitialEvents` is not allowed; for a
 * watch, `resourceVersionMatch` goes only with `sendInitialEvents` and must be `NotOlderThan`.
 * Pure; checks combinations only (a malformed `resourceVersion` or continue token is the
 * reader's 400).
 */
export function validateListOptions(
  o: ListOptionsToValidate,
  opts: { readonly watch: boolean; readonly watchListEnabled?: boolean },
): FieldError[] {
  return opts.watch ? validateWatch(o, opts.watchListEnabled ?? true) : validateList(o);
}

/** The 422 kube answers for invalid list options: `ListOptions.<meta group> "" is invalid: …`. */
export function invalidListOptions(errs: readonly FieldError[], metaGroup: string): StatusError {
  return apiErrors.invalid({ group: metaGroup, kind: 'ListOptions' }, '', errs);
}

/** Throws the 422 of {@link invalidListOptions} when {@link validateListOptions} finds errors. */
export function checkListOptions(
  o: ListOptionsToValidate,
  opts: { readonly watch: boolean; readonly watchListEnabled?: boolean; readonly metaGroup: string },
): void {
  const errs = validateListOptions(o, opts);
  if (errs.length > 0) throw invalidListOptions(errs, opts.metaGroup);
}

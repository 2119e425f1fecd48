import { type FieldError, fieldErrors } from '../apis/meta/field-error.js';

/** kube's longest field manager name, in bytes. */
export const FIELD_MANAGER_MAX_LENGTH = 128;

const PRINTABLE = /^[\p{L}\p{M}\p{N}\p{P}\p{S} ]$/u;

/** Go's `unicode.IsPrint` (letters, marks, numbers, punctuation, symbols, ASCII space). */
function isPrint(ch: string): boolean {
  return PRINTABLE.test(ch);
}

function codePointText(ch: string): string {
  const cp = ch.codePointAt(0)!;
  // A lone surrogate is what Go sees as an invalid byte: U+FFFD.
  return cp >= 0xd800 && cp <= 0xdfff ? '\ufffd' : ch;
}

/**
 * The manager of a non-apply write without `fieldManager`: the `User-Agent` up to its first `/`
 * (`kubectl/v1.32.0 (linux/amd64) …` → `kubectl`), without unprintable characters, cut to at
 * most 128 bytes (never inside a character). Empty when there is no user agent (kube then records
 * the manager as `unknown`).
 */
export function managerFromUserAgent(userAgent: string | undefined): string {
  const prefix = (userAgent ?? '').split('/')[0];
  let out = '';
  let bytes = 0;
  for (const raw of prefix) {
    const ch = codePointText(raw);
    if (!isPrint(ch)) continue;
    const size = Buffer.byteLength(ch, 'utf8');
    if (bytes + size > FIELD_MANAGER_MAX_LENGTH) break;
    out += ch;
    bytes += size;
  }
  return out;
}

/** The `fieldManager` parameter when given, else the user agent's prefix. */
export function managerOrUserAgent(fieldManager: string | undefined, userAgent: string | undefined): string {
  return fieldManager ? fieldManager : managerFromUserAgent(userAgent);
}

function uPlus(ch: string): string {
  return `U+${ch.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;
}

/**
 * kube's `ValidateFieldManager`: at most 128 bytes, printable characters only. Errors are on
 * `fieldManager` (`Too long: may not be more than 128 bytes`, `Invalid value: "…": invalid
 * character U+0009`).
 */
export function validateFieldManager(fieldManager: string, field = 'fieldManager'): FieldError[] {
  const errs: FieldError[] = [];
  if (Buffer.byteLength(fieldManager, 'utf8') > FIELD_MANAGER_MAX_LENGTH) {
    errs.push(fieldErrors.tooLong(field, FIELD_MANAGER_MAX_LENGTH));
  }
  for (const raw of fieldManager) {
    const ch = codePointText(raw);
    if (!isPrint(ch)) errs.push(fieldErrors.invalid(field, fieldManager, `invalid character ${uPlus(ch)}`));
  }
  return errs;
}

/**
 * kube's `ValidatePatchOptions` for the field-manager parameters: apply requires `fieldManager`
 * (`Required value: is required for apply patch`), other patches may not set `force`
 * (`Forbidden: may not be specified for non-apply patch`), and the name must be valid. kube
 * answers these with 422 `PatchOptions.meta.k8s.io "" is invalid`.
 */
export function validatePatchFieldManager(opts: {
  readonly isApply: boolean;
  readonly fieldManager: string | undefined;
  readonly force: boolean | undefined;
}): FieldError[] {
  const errs: FieldError[] = [];
  if (!opts.isApply) {
    if (opts.force !== undefined) errs.push(fieldErrors.forbidden('force', 'may not be specified for non-apply patch'));
  } else if (!opts.fieldManager) {
    errs.push(fieldErrors.required('fieldManager', 'is required for apply patch'));
  }
  errs.push(...validateFieldManager(opts.fieldManager ?? ''));
  return errs;
}

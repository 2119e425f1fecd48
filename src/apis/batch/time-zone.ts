import { invalidShown } from '../meta/field-error.js';
/**
 * Time zone names as kube-apiserver v1.32 checks a CronJob's `spec.timeZone`: IANA-style names
 * (each `/`-separated part of ASCII letters, digits, `.`, `-`, `_` and `+`, at most 14
 * characters, not `.` or `..`, not starting with `-`), not `Local`, and known to the time zone
 * database (Node's ICU data stands in for Go's `time.LoadLocation`; names differing only in case
 * from a known one are refused, as on a case-sensitive zoneinfo tree). Pure.
 */

import { goScalar } from '../apps/go-values.js';
import type { FieldError } from '../meta/field-error.js';

const PART = /^[A-Za-z.\-_0-9+]{1,14}$/;

/** `time.LoadLocation`'s error for `name` (`unknown time zone X`), or undefined when the database knows it. */
export function timeZoneError(name: string): string | undefined {
  if (name === '' || name === 'UTC') return undefined;
  let resolved: string;
  try {
    resolved = new Intl.DateTimeFormat('en-US', { timeZone: name }).resolvedOptions().timeZone;
  } catch {
    return `unknown time zone ${name}`;
  }
  // ICU matches names case-insensitively; zoneinfo files do not.
  if (resolved.toLowerCase() === name.toLowerCase() && resolved !== name) return `unknown time zone ${name}`;
  return undefined;
}

/** kube's `validateTimeZone` of a CronJob's `spec.timeZone` (absent: nothing to check). */
export function validateTimeZone(timeZone: unknown, path: string): FieldError[] {
  if (typeof timeZone !== 'string') return [];
  if (timeZone === '') return [invalidShown(path, goScalar(''), 'timeZone must be nil or non-empty string')];
  for (const part of timeZone.split('/')) {
    if (part === '.' || part === '..' || part.startsWith('-') || !PART.test(part)) {
      return [invalidShown(path, goScalar(timeZone), `unknown time zone ${timeZone}`)];
    }
  }
  const errs: FieldError[] = [];
  if (timeZone.toLowerCase() === 'local') {
    errs.push(
      invalidShown(
        path,
        goScalar(timeZone),
        'timeZone must be an explicit time zone as defined in https://www.iana.org/time-zones',
      ),
    );
  }
  const err = timeZone.toLowerCase() === 'local' ? undefined : timeZoneError(timeZone);
  if (err) errs.push(invalidShown(path, goScalar(timeZone), err));
  return errs;
}

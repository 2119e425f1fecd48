import { apiErrors } from '../../apis/meta/status.js';
import { goQuote } from '../../util/go-strconv.js';

/** `TableOptions.includeObject` as served: empty means `Metadata`. */
export type IncludeObject = '' | 'None' | 'Metadata' | 'Object';

const ALLOWED: ReadonlySet<string> = new Set(['', 'None', 'Metadata', 'Object']);

/**
 * The `includeObject` parameter of a request for a Table, checked as kube's
 * `ValidateTableOptions` does before any conversion (lists and watches with no rows included):
 * any other value is a 400 `Unable to convert to Table as requested: includeObject: Invalid
 * value: …`. Undefined when the parameter is absent.
 */
export function tableIncludeObject(query: URLSearchParams): IncludeObject | undefined {
  const v = query.get('includeObject');
  if (v === null) return undefined;
  if (ALLOWED.has(v)) return v as IncludeObject;
  throw apiErrors.badRequest(
    `Unable to convert to Table as requested: includeObject: Invalid value: ${goQuote(v)}: must be 'Metadata', 'Object', 'None', or empty`,
  );
}

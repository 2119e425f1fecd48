/**
 * The `fieldValidation` query parameter (`Ignore`, `Warn` (default), `Strict`) and what it does
 * with the unknown and duplicate fields found while decoding a body, in kube-apiserver's words:
 * Warn turns each into a warning (`unknown field "spec.x"`, `duplicate field "a"`, one per
 * go-yaml line `line 3: key "a" already set in map`), Strict rejects the request with
 * `strict decoding error: e1, e2`. Pure.
 */
import { type FieldError, fieldErrors } from '../apis/meta/field-error.js';
import { apiErrors, type StatusError } from '../apis/meta/status.js';
import { goQuote } from '../util/go-strconv.js';
import { compareGoStrings } from '../util/go-strings.js';
import { StrictDecodingError } from './errors.js';
import { type DuplicateField, locateJsonPaths, MAX_STRICT_ERRORS } from './json-strict.js';
import { yamlStrictErrorText } from './yaml-decode.js';

export type FieldValidationDirective = 'Ignore' | 'Warn' | 'Strict';

/** The options kinds whose `fieldValidation` is checked, for the 422 message. */
export type OptionsKind = 'CreateOptions' | 'UpdateOptions' | 'PatchOptions';

const SUPPORTED = ['', 'Ignore', 'Strict', 'Warn'];

/** An unsupported `fieldValidation` value (kube answers 422 Invalid on the options kind). */
export class InvalidFieldValidationError extends Error {
  readonly fieldError: FieldError;
  constructor(readonly value: string) {
    const fieldError = fieldErrors.notSupported('fieldValidation', value, SUPPORTED);
    super(`fieldValidation: ${fieldError.message}`);
    this.name = 'InvalidFieldValidationError';
    this.fieldError = fieldError;
  }

  /**
   * kube's answer: `CreateOptions.<meta group> "" is invalid: fieldValidation: Unsupported
   * value: "x": supported values: "", "Ignore", "Strict", "Warn"`.
   */
  toStatusError(optionsKind: OptionsKind, metaGroup: string): StatusError {
    return apiErrors.invalid({ group: metaGroup, kind: optionsKind }, '', [this.fieldError]);
  }
}

/**
 * The directive for the first value of the `fieldValidation` query parameter: absent or empty
 * means Warn; values are case-sensitive. Throws `InvalidFieldValidationError` otherwise.
 */
export function parseFieldValidation(value: string | null | undefined): FieldValidationDirective {
  if (value === undefined || value === null || value === '') return 'Warn';
  if (value === 'Ignore' || value === 'Warn' || value === 'Strict') return value;
  throw new InvalidFieldValidationError(value);
}

/** What decoding and pruning found in one body. */
export interface StrictFieldReport {
  /** Paths removed by `pruneUnknownFields`, in the order it met them. */
  readonly unknown?: readonly string[];
  /** Duplicated JSON keys from `decodeJsonStrict` (or bare paths). */
  readonly duplicates?: readonly (DuplicateField | string)[];
  /** go-yaml duplicate-key reports from `decodeYamlStrict`. */
  readonly yamlDuplicates?: readonly string[];
  /**
   * `typed` for built-in kinds: kube's struct decoder reports unknown and duplicate fields
   * interleaved in document order (pass `jsonText` for JSON bodies), and for YAML bodies the
   * unknown fields in the key order of the JSON kube converts YAML to. `unstructured` for
   * custom resources: duplicates first, then the unknown fields sorted. Default `typed`.
   */
  readonly kind?: 'typed' | 'unstructured';
  /** The JSON body, to place unknown fields in document order (`typed` only). */
  readonly jsonText?: string;
}

const unknownText = (path: string): string => `unknown field "${path}"`;
const duplicateText = (path: string): string => `duplicate field ${goQuote(path)}`;
const pathOf = (d: DuplicateField | string): string => (typeof d === 'string' ? d : d.path);

/** Splits `a.b[0].c` into `['a', 'b', 0, 'c']` (keys holding dots are split too). */
function segments(path: string): (string | number)[] {
  const out: (string | number)[] = [];
  for (const part of path.split('.')) {
    const m = /^([^[]*)((?:\[\d+\])*)$/.exec(part);
    if (!m) {
      out.push(part);
      continue;
    }
    if (m[1] !== '') out.push(m[1]);
    for (const idx of m[2].matchAll(/\[(\d+)\]/g)) out.push(Number(idx[1]));
  }
  return out;
}

/** Depth-first order over objects with sorted keys, as Go's `json.Marshal` of a map walks. */
function sortedKeyOrder(a: string, b: string): number {
  const sa = segments(a);
  const sb = segments(b);
  for (let i = 0; i < sa.length && i < sb.length; i++) {
    const x = sa[i];
    const y = sb[i];
    if (x === y) continue;
    if (typeof x === 'number' && typeof y === 'number') return x - y;
    return compareGoStrings(String(x), String(y));
  }
  return sa.length - sb.length;
}

/**
 * The strict-decoding error texts for a body, in kube's order (see `StrictFieldReport.kind`).
 * Empty when nothing unknown or duplicated was found.
 */
export function strictDecodingErrors(report: StrictFieldReport): string[] {
  const unknown = report.unknown ?? [];
  const duplicates = report.duplicates ?? [];
  const out: string[] = [];
  if (report.yamlDuplicates && report.yamlDuplicates.length > 0) out.push(yamlStrictErrorText(report.yamlDuplicates));
  if (report.kind === 'unstructured') {
    out.push(...duplicates.slice(0, MAX_STRICT_ERRORS).map((d) => duplicateText(pathOf(d))));
    out.push(...[...unknown].sort(compareGoStrings).map(unknownText));
    return out;
  }
  if (report.jsonText !== undefined && unknown.length > 0) {
    const offsets = locateJsonPaths(report.jsonText, unknown);
    const entries = [
      ...duplicates.map((d, i) => ({
        at: typeof d === 'string' ? Number.MAX_SAFE_INTEGER : d.offset,
        i,
        text: duplicateText(pathOf(d)),
      })),
      ...unknown.map((p, i) => ({
        at: offsets.get(p) ?? Number.MAX_SAFE_INTEGER,
        i: duplicates.length + i,
        text: unknownText(p),
      })),
    ];
    entries.sort((x, y) => x.at - y.at || x.i - y.i);
    out.push(...entries.slice(0, MAX_STRICT_ERRORS).map((e) => e.text));
    return out;
  }
  const typed = [
    ...duplicates.map((d) => duplicateText(pathOf(d))),
    ...(report.jsonText === undefined ? [...unknown].sort(sortedKeyOrder) : unknown).map(unknownText),
  ];
  out.push(...typed.slice(0, MAX_STRICT_ERRORS));
  return out;
}

const YAML_SHORT_PREFIX = 'yaml: unmarshal errors:\n';
const YAML_LONG_PREFIX = 'error converting YAML to JSON: yaml: unmarshal errors:\n';

/** kube's `parseYAMLWarnings`: one warning per line of a go-yaml strict error, else as is. */
export function splitYamlWarnings(text: string): string[] {
  let rest: string;
  if (text.startsWith(YAML_SHORT_PREFIX)) rest = text.slice(YAML_SHORT_PREFIX.length);
  else if (text.startsWith(YAML_LONG_PREFIX)) rest = text.slice(YAML_LONG_PREFIX.length);
  else return [text];
  return rest.split('\n').map((s) => s.trim());
}

/**
 * Applies the directive to the strict-decoding errors of a body (`strictDecodingErrors`, or a
 * report to build them from). Ignore: no warnings. Warn: one warning text per violation, ready
 * for `warningHeaderValue`. Strict: throws `StrictDecodingError` when there is any; the caller
 * answers 400 with kube's wrapping (`<Kind> in version "v1" cannot be handled as a <Kind>:
 * strict decoding error: ...` for create/update, see `decode-errors.ts`).
 */
export function fieldValidation(
  directive: FieldValidationDirective,
  errors: readonly string[] | StrictFieldReport,
): { warnings: string[] } {
  if (directive === 'Ignore') return { warnings: [] };
  const list = Array.isArray(errors)
    ? (errors as readonly string[])
    : strictDecodingErrors(errors as StrictFieldReport);
  if (list.length === 0) return { warnings: [] };
  if (directive === 'Strict') throw new StrictDecodingError(list);
  return { warnings: list.flatMap(splitYamlWarnings) };
}

/**
 * Field-level validation errors, in the shape kube-apiserver reports them as `Status`
 * `details.causes`: `{ reason, message, field }`.
 */
import { stringifyJson } from '../../util/json-text.js';

export type FieldErrorType =
  | 'FieldValueRequired'
  | 'FieldValueInvalid'
  | 'FieldValueNotSupported'
  | 'FieldValueForbidden'
  | 'FieldValueTooLong'
  | 'FieldValueTooMany'
  | 'FieldValueDuplicate'
  | 'FieldValueTypeInvalid'
  | 'FieldValueNotFound'
  | 'InternalError';

export interface FieldError {
  readonly type: FieldErrorType;
  /** Dotted path, e.g. `metadata.name`, `data[key]`, `spec.items[0].name`. */
  readonly field: string;
  /** Full message as kube prints it, e.g. `Required value` or `Invalid value: "x": must be ...`. */
  readonly message: string;
}

function quoteValue(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value);
  if (value === null || value === undefined) return 'null';
  if (typeof value === 'object') return stringifyJson(value) as string;
  return String(value);
}

export const fieldErrors = {
  required(field: string, detail = ''): FieldError {
    return { type: 'FieldValueRequired', field, message: detail ? `Required value: ${detail}` : 'Required value' };
  },
  invalid(field: string, value: unknown, detail: string): FieldError {
    return { type: 'FieldValueInvalid', field, message: `Invalid value: ${quoteValue(value)}: ${detail}` };
  },
  notSupported(field: string, value: unknown, supported: readonly string[]): FieldError {
    const list = supported.map((s) => JSON.stringify(s)).join(', ');
    return {
      type: 'FieldValueNotSupported',
      field,
      message: `Unsupported value: ${quoteValue(value)}: supported values: ${list}`,
    };
  },
  forbidden(field: string, detail: string): FieldError {
    return { type: 'FieldValueForbidden', field, message: `Forbidden: ${detail}` };
  },
  tooLong(field: string, maxLength: number): FieldError {
    return { type: 'FieldValueTooLong', field, message: `Too long: may not be more than ${maxLength} bytes` };
  },
  tooMany(field: string, actual: number, max: number): FieldError {
    return { type: 'FieldValueTooMany', field, message: `Too many: ${actual}: must have at most ${max} items` };
  },
  duplicate(field: string, value: unknown): FieldError {
    return { type: 'FieldValueDuplicate', field, message: `Duplicate value: ${quoteValue(value)}` };
  },
  /** kube's `field.NotFound`: a reference to something that does not exist (`Not found: "x"`). */
  notFound(field: string, value: unknown): FieldError {
    return { type: 'FieldValueNotFound', field, message: `Not found: ${quoteValue(value)}` };
  },
  typeInvalid(field: string, value: unknown, detail: string): FieldError {
    return { type: 'FieldValueTypeInvalid', field, message: `Invalid value: ${quoteValue(value)}: ${detail}` };
  },
};

/**
 * `field.Invalid` whose value is already in the form kube prints it (Go's `%#v` of a slice, map
 * or struct, e.g. `[]string{"a"}`); an empty detail adds nothing, as Go's error body does.
 */
export function invalidShown(field: string, display: string, detail: string): FieldError {
  return {
    type: 'FieldValueInvalid',
    field,
    message: detail ? `Invalid value: ${display}: ${detail}` : `Invalid value: ${display}`,
  };
}

/** `field.NotSupported` whose value is already in the form kube prints it. */
export function notSupportedShown(field: string, display: string, supported: readonly string[]): FieldError {
  const list = supported.map((s) => JSON.stringify(s)).join(', ');
  return { type: 'FieldValueNotSupported', field, message: `Unsupported value: ${display}: supported values: ${list}` };
}

/** `field.Duplicate` whose value is already in the form kube prints it. */
export function duplicateShown(field: string, display: string): FieldError {
  return { type: 'FieldValueDuplicate', field, message: `Duplicate value: ${display}` };
}

/** `field: message`, the form kube uses when joining field errors into a Status message. */
export function formatFieldError(e: FieldError): string {
  return e.field ? `${e.field}: ${e.message}` : e.message;
}

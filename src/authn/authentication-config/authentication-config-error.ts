import { type FieldError, formatFieldError } from '../../apis/meta/field-error.js';

/**
 * Go's aggregate error text (`utilerrors.NewAggregate(...).Error()`): one message as is, several
 * as `[a, b]`, identical messages once.
 */
export function aggregateMessage(messages: readonly string[]): string {
  const unique = [...new Set(messages)];
  if (unique.length === 1) return unique[0] as string;
  return `[${unique.join(', ')}]`;
}

/** Field errors as kube joins them: `jwt[0].issuer.url: Invalid value: "x": URL scheme must be https`. */
export function fieldErrorsMessage(errors: readonly FieldError[]): string {
  return aggregateMessage(errors.map(formatFieldError));
}

/**
 * The authentication flags or the authentication configuration file are unusable. `problems`
 * lists every problem found (each naming its flag or field path); `message` is kube-apiserver's
 * text for them. Never contains a token or a key.
 */
export class AuthenticationConfigError extends Error {
  override readonly name = 'AuthenticationConfigError';

  constructor(
    message: string,
    readonly problems: readonly string[] = [message],
    options?: ErrorOptions,
  ) {
    super(message, options);
  }
}

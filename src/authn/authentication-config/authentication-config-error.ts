import { type FieldError, formatFieldError } from '../../apis/meta/field-error.js';
import { AuthenticationConfigError } from '../authentication-config-error.js';

/**
 * Go's aggregate error text (`utilerrors.NewAggregate(...).Error()`): one message as is, several
 * as `[a, b]`, identical messages once.
 */
export function aggregateMessage(messages: readonly string[]): string {
  const unique = [...new Set(messages)];
  if (unique.length === 1) return unique[0] as string;
  return `[${unique.join(', ')}]`;
}

/**
 * kube-apiserver's start-up error for an invalid configuration, `invalid authentication
 * configuration: <field errors>`, with one problem per field error (several are bracketed).
 */
export function invalidConfigurationError(errors: readonly FieldError[]): AuthenticationConfigError {
  const problems = [...new Set(errors.map(formatFieldError))];
  return new AuthenticationConfigError(
    problems.length === 1 ? [`invalid authentication configuration: ${problems[0]}`] : problems,
  );
}

export { AuthenticationConfigError };

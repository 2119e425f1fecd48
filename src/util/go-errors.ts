/**
 * Go's aggregate error text (`utilerrors.NewAggregate(errs).Error()`): nothing for none, one
 * message as is, several as `[a, b]`, each distinct message once.
 */
export function aggregateErrorMessage(messages: readonly string[]): string {
  const unique = [...new Set(messages)];
  if (unique.length === 1) return unique[0] as string;
  return unique.length === 0 ? '' : `[${unique.join(', ')}]`;
}

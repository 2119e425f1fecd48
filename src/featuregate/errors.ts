/** Joins problems the way kube's error aggregates print: one bare, several bracketed. */
export function aggregateMessage(problems: readonly string[]): string {
  return problems.length === 1 ? problems[0] : `[${problems.join(', ')}]`;
}

/**
 * A `--feature-gates` value or a feature lookup was rejected. `problems` holds every kube-worded
 * reason (`unrecognized feature gate: X`, `cannot set feature gate X to true, feature is locked to false`, ...).
 */
export class FeatureGateError extends Error {
  readonly code = 'FeatureGate' as const;
  constructor(
    readonly problems: readonly string[],
    options?: { cause?: unknown },
  ) {
    super(aggregateMessage(problems), options);
    this.name = 'FeatureGateError';
  }
}

/** A `--runtime-config` value is malformed or names group versions that are not served. */
export class RuntimeConfigError extends Error {
  readonly code = 'RuntimeConfig' as const;
  constructor(
    readonly problems: readonly string[],
    options?: { cause?: unknown },
  ) {
    super(aggregateMessage(problems), options);
    this.name = 'RuntimeConfigError';
  }
}

/**
 * Go's `strconv.ParseBool`: 1, t, T, TRUE, true, True, 0, f, F, FALSE, false, False. Returns the
 * value or the error text Go produces, which kube embeds in its messages.
 */
export function parseGoBool(value: string): boolean | { error: string } {
  if (['1', 't', 'T', 'TRUE', 'true', 'True'].includes(value)) return true;
  if (['0', 'f', 'F', 'FALSE', 'false', 'False'].includes(value)) return false;
  return { error: `strconv.ParseBool: parsing ${JSON.stringify(value)}: invalid syntax` };
}

export type FlagErrorCode =
  | 'UnknownFlag'
  | 'InvalidArgument'
  | 'MissingArgument'
  | 'BadSyntax'
  | 'UnexpectedArguments'
  | 'InvalidCombination';

/**
 * A command line was rejected. `message` is one line in pflag's wording, ready to print after
 * `Error: ` (several validation problems are joined as kube aggregates them: `[a, b]`).
 */
export abstract class FlagError extends Error {
  abstract readonly code: FlagErrorCode;
}

/** The arguments could not be read: unknown flag, missing or unparseable value, stray arguments. */
export class FlagParseError extends FlagError {
  constructor(
    readonly code: Exclude<FlagErrorCode, 'InvalidCombination'>,
    message: string,
    /** The flag as written (`--secure-port`), when one is involved. */
    readonly flag?: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'FlagParseError';
  }
}

/** Every flag parsed, but their values or combination are invalid; `problems` lists each. */
export class FlagValidationError extends FlagError {
  readonly code = 'InvalidCombination' as const;
  constructor(
    readonly problems: readonly string[],
    options?: { cause?: unknown },
  ) {
    super(problems.length === 1 ? problems[0] : `[${problems.join(', ')}]`, options);
    this.name = 'FlagValidationError';
  }
}

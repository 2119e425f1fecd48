/**
 * Authentication cannot be built from its options: a flag combination, or a file it names (token
 * file, webhook configuration, CA bundle) is unusable. `problems` lists every problem found, each
 * naming the flag, file and line or field; the message joins them. Never contains a secret.
 */
export class AuthenticationConfigError extends Error {
  readonly problems: readonly string[];

  constructor(problems: readonly string[], options?: ErrorOptions) {
    super(
      problems.length === 1
        ? (problems[0] as string)
        : `invalid authentication configuration: [${problems.join(', ')}]`,
      options,
    );
    this.name = 'AuthenticationConfigError';
    this.problems = Object.freeze([...problems]);
  }
}

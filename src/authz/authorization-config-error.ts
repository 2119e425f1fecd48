/**
 * The authorizer chain cannot be built from its options: a webhook client configuration or the
 * AuthorizationConfiguration file is unusable. `problems` lists every problem, each naming the
 * flag, file or field path; the message is kube's text (one problem as is, several bracketed).
 * Never contains a secret.
 */
export class AuthorizationConfigError extends Error {
  readonly problems: readonly string[];

  constructor(problems: readonly string[], options?: ErrorOptions) {
    super(problems.length === 1 ? (problems[0] as string) : `[${problems.join(', ')}]`, options);
    this.name = 'AuthorizationConfigError';
    this.problems = Object.freeze([...problems]);
  }
}

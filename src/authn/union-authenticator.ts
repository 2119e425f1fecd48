import type { Authenticator, AuthResult, RequestHead } from './authenticator.js';
import { NO_OPINION } from './authenticator.js';

export interface UnionOptions {
  /**
   * Stop at the first `error` instead of trying the remaining authenticators. Used to put anonymous behind
   * the real authenticators: a bad credential is a 401, never an anonymous request.
   */
  readonly failOnError?: boolean;
}

/**
 * Tries `authenticators` in order; the first `user` wins. Without `failOnError`, errors are collected and
 * returned (joined with "; ") only if no authenticator succeeds; with no user and no error the result is
 * `no-opinion`. The request's signal is never read here (reading it creates it, which costs more
 * than a cached GET): authenticators that wait observe it themselves.
 */
export function unionAuthenticator(
  authenticators: readonly Authenticator[],
  options: UnionOptions = {},
): Authenticator {
  const list = [...authenticators];
  const failOnError = options.failOnError ?? false;
  // Synchronous answers are taken as they come; from the first authenticator that waits on, the
  // rest of the search continues asynchronously.
  const from = (req: RequestHead, index: number, errors: string[]): AuthResult | Promise<AuthResult> => {
    for (let i = index; i < list.length; i++) {
      const answer = (list[i] as Authenticator).authenticate(req);
      if (answer instanceof Promise) {
        return answer.then((result) => {
          const decided = decide(result, errors);
          return decided ?? from(req, i + 1, errors);
        });
      }
      const decided = decide(answer, errors);
      if (decided !== undefined) return decided;
    }
    return errors.length > 0 ? { kind: 'error', message: errors.join('; ') } : NO_OPINION;
  };
  /** The union's answer when `result` settles it, else undefined (its error, if any, recorded). */
  const decide = (result: AuthResult, errors: string[]): AuthResult | undefined => {
    if (result.kind === 'user') return result;
    if (result.kind === 'error') {
      if (failOnError) return result;
      errors.push(result.message);
    }
    return undefined;
  };
  return {
    authenticate(req: RequestHead): AuthResult | Promise<AuthResult> {
      return from(req, 0, []);
    },
  } satisfies Authenticator;
}

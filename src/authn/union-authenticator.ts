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
  return {
    async authenticate(req: RequestHead): Promise<AuthResult> {
      const errors: string[] = [];
      for (const a of list) {
        const result = await a.authenticate(req);
        if (result.kind === 'user') return result;
        if (result.kind === 'error') {
          if (failOnError) return result;
          errors.push(result.message);
        }
      }
      return errors.length > 0 ? { kind: 'error', message: errors.join('; ') } : NO_OPINION;
    },
  } satisfies Authenticator;
}

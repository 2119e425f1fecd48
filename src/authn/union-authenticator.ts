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
 * `no-opinion`. Throws the signal's reason if aborted between authenticators.
 */
export function unionAuthenticator(
  authenticators: readonly Authenticator[],
  options: UnionOptions = {},
): Authenticator {
  const list = [...authenticators];
  const failOnError = options.failOnError ?? false;
  return {
    async authenticate(req: RequestHead, signal: AbortSignal): Promise<AuthResult> {
      const errors: string[] = [];
      for (const a of list) {
        signal.throwIfAborted();
        const result = await a.authenticate(req, signal);
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

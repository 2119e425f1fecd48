import {
  ANONYMOUS_USER,
  type Authenticator,
  type AuthResult,
  NO_OPINION,
  type RequestHead,
  UNAUTHENTICATED_GROUP,
} from './authenticator.js';

export interface AnonymousAuthenticatorOptions {
  /**
   * `anonymous.conditions[].path` of the authentication configuration: when given, only requests for
   * these exact paths (query ignored) are anonymous; others get `no-opinion` (hence 401).
   */
  readonly allowedPaths?: readonly string[];
}

const ANONYMOUS: AuthResult = Object.freeze({
  kind: 'user' as const,
  user: Object.freeze({ name: ANONYMOUS_USER, groups: Object.freeze([UNAUTHENTICATED_GROUP]) }),
});

/** Identifies every request as `system:anonymous` in `system:unauthenticated`. Use it last, behind a fail-on-error union. */
export class AnonymousAuthenticator implements Authenticator {
  private readonly allowedPaths: ReadonlySet<string> | undefined;

  constructor(options: AnonymousAuthenticatorOptions = {}) {
    this.allowedPaths = options.allowedPaths ? new Set(options.allowedPaths) : undefined;
  }

  authenticate(req: RequestHead): AuthResult {
    if (this.allowedPaths !== undefined) {
      const q = req.url.indexOf('?');
      const path = q === -1 ? req.url : req.url.slice(0, q);
      if (!this.allowedPaths.has(path)) return NO_OPINION;
    }
    return ANONYMOUS;
  }
}

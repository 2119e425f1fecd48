import { type FieldError, fieldErrors } from '../../apis/meta/field-error.js';
import type { CompiledJwtAuthenticator } from './compiled-jwt-authenticator.js';
import type { AnonymousAuthCondition, AuthenticationConfiguration } from './types.js';
import { type JwtValidationContext, validateJwtAuthenticator } from './validate-jwt-authenticator.js';

/** kube-apiserver's limit on JWT authenticators in one configuration. */
export const MAX_JWT_AUTHENTICATORS = 64;

export interface ConfigValidationContext extends JwtValidationContext {
  /** The `AnonymousAuthConfigurableEndpoints` feature gate. */
  readonly anonymousConfigurableEndpoints: boolean;
}

/** A configuration's problems, and its authenticators compiled (usable only without problems). */
export interface ValidatedAuthenticationConfiguration {
  readonly errors: readonly FieldError[];
  readonly authenticators: readonly CompiledJwtAuthenticator[];
}

/**
 * Validates an authentication configuration as kube-apiserver does, listing every problem with
 * its field path (`jwt[0].issuer.url: Invalid value: ...`), and compiles every expression once.
 * Zero authenticators are allowed (they may be added by a reload).
 */
export function validateAuthenticationConfiguration(
  config: AuthenticationConfiguration,
  ctx: ConfigValidationContext,
): ValidatedAuthenticationConfiguration {
  const errors: FieldError[] = [];
  if (config.jwt.length > MAX_JWT_AUTHENTICATORS) {
    return { errors: [fieldErrors.tooMany('jwt', config.jwt.length, MAX_JWT_AUTHENTICATORS)], authenticators: [] };
  }
  const authenticators: CompiledJwtAuthenticator[] = [];
  const seenIssuers = new Set<string>();
  const seenDiscoveryUrls = new Set<string>();
  config.jwt.forEach((a, i) => {
    const path = `jwt[${i}]`;
    const result = validateJwtAuthenticator(a, path, ctx);
    errors.push(...result.errors);
    authenticators.push(result.compiled);
    if (seenIssuers.has(a.issuer.url)) errors.push(fieldErrors.duplicate(`${path}.issuer.url`, a.issuer.url));
    seenIssuers.add(a.issuer.url);
    if (a.issuer.discoveryURL !== '') {
      if (seenDiscoveryUrls.has(a.issuer.discoveryURL)) {
        errors.push(fieldErrors.duplicate(`${path}.issuer.discoveryURL`, a.issuer.discoveryURL));
      }
      seenDiscoveryUrls.add(a.issuer.discoveryURL);
    }
  });
  if (config.anonymous !== undefined) {
    if (!ctx.anonymousConfigurableEndpoints) {
      errors.push(
        fieldErrors.forbidden(
          'anonymous',
          'anonymous is not supported when AnonymousAuthConfigurableEnpoints feature gate is disabled',
        ),
      );
    }
    if (!config.anonymous.enabled && config.anonymous.conditions.length > 0) {
      errors.push({
        type: 'FieldValueInvalid',
        field: 'anonymous.conditions',
        message: `Invalid value: ${goConditions(config.anonymous.conditions)}: enabled should be set to true when conditions are defined`,
      });
    }
  }
  return { errors, authenticators };
}

/** Go's `%#v` of the conditions, as kube prints a non-scalar invalid value. */
function goConditions(conditions: readonly AnonymousAuthCondition[]): string {
  const items = conditions.map((c) => `apiserver.AnonymousAuthCondition{Path:${JSON.stringify(c.path)}}`);
  return `[]apiserver.AnonymousAuthCondition{${items.join(', ')}}`;
}

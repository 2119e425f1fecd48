/**
 * The authentication configuration (`AuthenticationConfiguration` of
 * `apiserver.config.<domain>/v1beta1`, also `v1alpha1`), decoded: every optional string is `''`
 * when absent and every list `[]`, as Go's zero values; `prefix` alone keeps "absent" apart from
 * "empty" (kube's `*string`).
 */
export interface AuthenticationConfiguration {
  /** JWT authenticators, at most 64. */
  readonly jwt: readonly JwtAuthenticatorConfig[];
  /** Absent when the file does not configure anonymous requests (then `--anonymous-auth` decides). */
  readonly anonymous?: AnonymousAuthConfig;
}

export interface JwtAuthenticatorConfig {
  readonly issuer: IssuerConfig;
  readonly claimValidationRules: readonly ClaimValidationRule[];
  readonly claimMappings: ClaimMappings;
  readonly userValidationRules: readonly UserValidationRule[];
}

export interface IssuerConfig {
  /** Must equal the tokens' `iss` and the discovery document's `issuer`. */
  readonly url: string;
  /** Where discovery is fetched instead of `{url}/.well-known/openid-configuration`; used as is. */
  readonly discoveryURL: string;
  /** PEM CA bundle verifying the discovery and key-set connections; host roots when empty. */
  readonly certificateAuthority: string;
  readonly audiences: readonly string[];
  /** `MatchAny` or empty. */
  readonly audienceMatchPolicy: string;
}

export interface ClaimValidationRule {
  readonly claim: string;
  readonly requiredValue: string;
  readonly expression: string;
  readonly message: string;
}

export interface PrefixedClaimOrExpression {
  readonly claim: string;
  /** `undefined` when not written (required with `claim`; `''` disables prefixing). */
  readonly prefix: string | undefined;
  readonly expression: string;
}

export interface ClaimOrExpression {
  readonly claim: string;
  readonly expression: string;
}

export interface ExtraMapping {
  readonly key: string;
  readonly valueExpression: string;
}

export interface ClaimMappings {
  readonly username: PrefixedClaimOrExpression;
  readonly groups: PrefixedClaimOrExpression;
  readonly uid: ClaimOrExpression;
  readonly extra: readonly ExtraMapping[];
}

export interface UserValidationRule {
  readonly expression: string;
  readonly message: string;
}

export interface AnonymousAuthConfig {
  readonly enabled: boolean;
  readonly conditions: readonly AnonymousAuthCondition[];
}

export interface AnonymousAuthCondition {
  readonly path: string;
}

/** The `kind` of the file. */
export const AUTHENTICATION_CONFIGURATION_KIND = 'AuthenticationConfiguration';

/** Versions of `apiserver.config.<domain>` that carry the kind in kube-apiserver v1.32. */
export const AUTHENTICATION_CONFIGURATION_VERSIONS: readonly string[] = ['v1alpha1', 'v1beta1'];

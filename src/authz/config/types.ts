import type { ApiDomain } from '../../apis/api-domain.js';

/**
 * The authorization configuration (`AuthorizationConfiguration` of `apiserver.config.<domain>`,
 * `v1`, also `v1beta1` and `v1alpha1`), decoded and defaulted: absent strings are `''`, absent
 * lists `[]`, as Go's zero values.
 */
export interface AuthorizationConfiguration {
  readonly authorizers: readonly AuthorizerConfiguration[];
}

export interface AuthorizerConfiguration {
  /** `Webhook`, `Node`, `RBAC` (and kube's `AlwaysAllow`, `AlwaysDeny`, `ABAC`). */
  readonly type: string;
  /** Names the authorizer in metrics; a non-webhook authorizer must be named after its type in lower case. */
  readonly name: string;
  /** Only for `type: Webhook`. */
  readonly webhook?: WebhookConfiguration;
}

export interface WebhookConfiguration {
  /** Milliseconds; defaulted to 5 minutes when absent or 0. */
  readonly authorizedTTLMs: number;
  /** Milliseconds; defaulted to 30 seconds when absent or 0. */
  readonly unauthorizedTTLMs: number;
  /** Milliseconds; required, at most 30 s. */
  readonly timeoutMs: number;
  readonly subjectAccessReviewVersion: string;
  readonly matchConditionSubjectAccessReviewVersion: string;
  readonly failurePolicy: string;
  readonly connectionInfo: WebhookConnectionInfo;
  readonly matchConditions: readonly { readonly expression: string }[];
}

export interface WebhookConnectionInfo {
  /** `<Product>ConfigFile` (`OrchConfigFile` | `KubeConfigFile`) or `InClusterConfig`. */
  readonly type: string;
  /** The client configuration file (`orchConfigFile` | `kubeConfigFile`); undefined when absent. */
  readonly configFile: string | undefined;
}

export const AUTHORIZATION_CONFIGURATION_KIND = 'AuthorizationConfiguration';
export const AUTHORIZATION_CONFIGURATION_VERSIONS: readonly string[] = ['v1', 'v1beta1', 'v1alpha1'];

/** kube's defaults of a webhook's cache times. */
export const DEFAULT_AUTHORIZED_TTL_MS = 5 * 60_000;
export const DEFAULT_UNAUTHORIZED_TTL_MS = 30_000;

/** The connection type naming a client configuration file: `OrchConfigFile` | `KubeConfigFile`. */
export function configFileConnectionType(domain: ApiDomain): string {
  return domain.kindName('ConfigFile');
}

/** The field holding that file: `orchConfigFile` | `kubeConfigFile`. */
export function configFileField(domain: ApiDomain): string {
  const type = configFileConnectionType(domain);
  return `${type[0]?.toLowerCase()}${type.slice(1)}`;
}

export const IN_CLUSTER_CONNECTION_TYPE = 'InClusterConfig';

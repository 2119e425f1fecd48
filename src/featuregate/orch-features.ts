import { FeatureGates, type FeatureSpec } from './feature-gates.js';

/** Names of the features Orch knows, as accepted by `--feature-gates`. */
export const OrchFeatures = {
  /** Serve and store `application/cbor` (spec: alpha, default false). */
  CBORServingAndStorage: 'CBORServingAndStorage',
  /** gzip responses to get and list when the client accepts it (beta since v1.16, default true). */
  APIResponseCompression: 'APIResponseCompression',
  /** Allow `ignoreStoreReadErrorWithClusterBreakingPotential` deletes of undecodable objects. */
  AllowUnsafeMalformedObjectDeletion: 'AllowUnsafeMalformedObjectDeletion',
  /** Streaming lists through watch with `sendInitialEvents`; off, such watches are a 422. */
  WatchList: 'WatchList',
  /** `--authentication-config` (JWT authenticators from a file; beta since v1.30, default true). */
  StructuredAuthenticationConfiguration: 'StructuredAuthenticationConfiguration',
  /** `--authorization-config` (the authorizer chain from a file; beta since v1.30, default true). */
  StructuredAuthorizationConfiguration: 'StructuredAuthorizationConfiguration',
  /** The `anonymous` section of the authentication configuration (beta since v1.32, default true). */
  AnonymousAuthConfigurableEndpoints: 'AnonymousAuthConfigurableEndpoints',
  /**
   * Authorizers see the field and label selectors of list, watch and deletecollection requests,
   * and access reviews take `fieldSelector`/`labelSelector` (alpha in v1.31, beta and default
   * true in v1.32).
   */
  AuthorizeWithSelectors: 'AuthorizeWithSelectors',
  /**
   * The Node authorizer limits a node's reads of nodes to its own Node and its lists and watches
   * of pods to a `spec.nodeName=<node>` field selector (and of ResourceSlices to `spec.nodeName`);
   * beta and default true in v1.32. Selectors reach it only with `AuthorizeWithSelectors` on.
   */
  AuthorizeNodeWithSelectors: 'AuthorizeNodeWithSelectors',
  /**
   * Coordinated leader election: `coordination.<domain>/v1alpha2` LeaseCandidates (with that
   * version enabled by `--runtime-config`), Lease `strategy` and `preferredHolder`, and the
   * election controller (alpha since v1.31, default false).
   */
  CoordinatedLeaderElection: 'CoordinatedLeaderElection',
  /** Each API server keeps an identity Lease in the system namespace (beta since v1.26, default true). */
  APIServerIdentity: 'APIServerIdentity',
  /** Aggregated discovery (`/api`, `/apis` as APIGroupDiscoveryList): GA since v1.30, locked on. */
  AggregatedDiscoveryEndpoint: 'AggregatedDiscoveryEndpoint',
} as const;

export type OrchFeature = (typeof OrchFeatures)[keyof typeof OrchFeatures];

/** Defaults and stages as of kube-apiserver v1.32. */
export const orchFeatureSpecs: Readonly<Record<OrchFeature, FeatureSpec>> = {
  CBORServingAndStorage: { default: false, stage: 'ALPHA' },
  APIResponseCompression: { default: true, stage: 'BETA' },
  AllowUnsafeMalformedObjectDeletion: { default: false, stage: 'ALPHA' },
  WatchList: { default: true, stage: 'BETA' },
  StructuredAuthenticationConfiguration: { default: true, stage: 'BETA' },
  StructuredAuthorizationConfiguration: { default: true, stage: 'BETA' },
  AnonymousAuthConfigurableEndpoints: { default: true, stage: 'BETA' },
  AuthorizeWithSelectors: { default: true, stage: 'BETA' },
  AuthorizeNodeWithSelectors: { default: true, stage: 'BETA' },
  CoordinatedLeaderElection: { default: false, stage: 'ALPHA' },
  APIServerIdentity: { default: true, stage: 'BETA' },
  AggregatedDiscoveryEndpoint: { default: true, stage: 'GA', lockToDefault: true },
};

/** A fresh gate set holding Orch's features at their defaults; register more with `add`. */
export function newOrchFeatureGates(): FeatureGates {
  return new FeatureGates(orchFeatureSpecs);
}

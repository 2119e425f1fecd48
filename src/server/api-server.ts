import { randomUUID } from 'node:crypto';
import type { Registry } from 'prom-client';
import { AdmissionChain, type AdmissionPlugin, BUILTIN_ADMISSION_PLUGINS, buildAdmission } from '../admission/index.js';
import type { ApiDomain } from '../apis/api-domain.js';
import type { ResourceDefinition } from '../apis/resource-definition.js';
import type { AuditBackend, AuditPolicyEvaluator } from '../audit/index.js';
import type { Authenticator } from '../authn/authenticator.js';
import { buildRequestAuthenticator } from '../authn/request-authenticator.js';
import type { IssuerDiscoveryDocuments } from '../authn/service-account/issuer-discovery.js';
import { X509Authenticator } from '../authn/x509-authenticator.js';
import { type Authorizer, buildAuthorizer } from '../authz/index.js';
import { NodeAuthorizer, NodeGraph } from '../authz/node/index.js';
import { RbacAuthorizer } from '../authz/rbac/rbac-authorizer.js';
import { RbacIndex } from '../authz/rbac/rbac-index.js';
import { EncodingCache } from '../encoding/index.js';
import { discoveryHandler } from '../endpoints/discovery/discovery-handler.js';
import { audit, auditFailedAuthentication } from '../endpoints/filters/audit.js';
import { authentication } from '../endpoints/filters/authentication.js';
import { authorization } from '../endpoints/filters/authorization.js';
import { commonHeaders } from '../endpoints/filters/common-headers.js';
import { impersonation } from '../endpoints/filters/impersonation.js';
import { requestInfo } from '../endpoints/filters/request-info.js';
import { requestMetrics } from '../endpoints/filters/request-metrics.js';
import { chain, type Handler } from '../endpoints/handler.js';
import { resourceHandler } from '../endpoints/handlers/resource-handler.js';
import type { FeatureGates } from '../featuregate/feature-gates.js';
import { OrchFeatures } from '../featuregate/orch-features.js';
import type { ApiServerMetrics } from '../metrics/apiserver-metrics.js';
import type { WriteHooks } from '../registry/generic/write-hooks.js';
import { ResourceSet, resourceFactory } from '../registry/resource-set/index.js';
import type { KeyScheme } from '../storage/keys.js';
import type { Store } from '../storage/store.js';
import { type Clock, systemClock } from '../util/clock.js';
import type { Logger } from '../util/logger.js';
import type { PreparedAuthorization } from './authorization-setup.js';
import { ensureSystemNamespaces, immortalNamespaces } from './bootstrap-namespaces.js';
import { priorityClassLister, storageClassLister } from './cluster-objects.js';
import { panicRecovery } from './filters/panic-recovery.js';
import type { HealthRegistry } from './health/health-registry.js';
import { metricsHandler } from './metrics-handler.js';
import { feedNodeGraph } from './node-graph-feed.js';
import { openApiHandler } from './openapi-handler.js';
import { rbacEscalationPlugin } from './rbac-escalation.js';
import { feedRbacIndex, type RbacIndexFeed, type RbacWrite } from './rbac-index-feed.js';
import { resourceSetReader } from './resource-set-reader.js';
import { rootHandler } from './root-handler.js';
import { rootPathsHandler } from './root-paths.js';
import { serviceAccountIssuerHandler } from './service-account-issuer.js';
import { versionInfo } from './version.js';

const NAMESPACES = { group: '', version: 'v1', resource: 'namespaces' } as const;
const PODS = { group: '', version: 'v1', resource: 'pods' } as const;
const NODES = { group: '', version: 'v1', resource: 'nodes' } as const;

/** `--authorization-mode` when not given: kube's recommended `Node,RBAC`. */
export const DEFAULT_AUTHORIZATION_MODES: readonly string[] = Object.freeze(['Node', 'RBAC']);

// Bookmarks are never promised at any interval; idle watchers with bookmarks get one this often.
const BOOKMARK_INTERVAL_MS = 5000;

/** What the API server's request pipeline is built from. */
export interface ApiServerDeps {
  readonly store: Store;
  readonly keys: KeyScheme;
  /** Every domain-derived name (`orch.io` or `k8s.io` profile). */
  readonly domain: ApiDomain;
  readonly gates: FeatureGates;
  readonly logger: Logger;
  readonly health: HealthRegistry;
  /** Stops every watch cache when it aborts. */
  readonly lifetime: AbortSignal;
  /** `host:port` clients reach the server at (legacy discovery's serverAddressByClientCIDRs). */
  readonly serverAddress: () => string;
  readonly clock?: Clock;
  /** Default: client certificates, then anonymous. */
  readonly authenticator?: Authenticator;
  /** `--authorization-mode`; default `['Node', 'RBAC']`. */
  readonly authorizationModes?: readonly string[];
  /** The `ABAC` mode's authorizer (required when it is a mode). */
  readonly abac?: Authorizer;
  /** The chain with its files read (webhooks, `--authorization-config`); its modes replace `authorizationModes`. */
  readonly authorization?: PreparedAuthorization;
  readonly enableAdmissionPlugins?: readonly string[];
  readonly disableAdmissionPlugins?: readonly string[];
  /** Plugins of an embedding program, run after the built-in ones. */
  readonly admissionPlugins?: readonly AdmissionPlugin[];
  readonly minRequestTimeoutSeconds?: number;
  /** Service-account issuer discovery documents to serve; absent: not served. */
  readonly serviceAccountIssuer?: IssuerDiscoveryDocuments;
  /** kube's request, authentication and authorization metrics, recorded by the filters. */
  readonly metrics?: ApiServerMetrics;
  /** `--audit-policy-file` with a backend: requests are audited. */
  readonly audit?: { readonly evaluator: AuditPolicyEvaluator; readonly backend: AuditBackend };
  /** Served at `/metrics` when set. */
  readonly metricsRegistry?: Registry;
  /** Work around the store writes of some resources (Service allocations). */
  readonly writeHooks?: (def: ResourceDefinition) => WriteHooks | undefined;
}

/** The request pipeline and the resource set it serves. */
export interface ApiServer {
  /** Filters, then health, discovery, OpenAPI or resources. */
  readonly handler: Handler;
  readonly resources: ResourceSet;
  /** The authorizer chain of `--authorization-mode` (the access-review APIs ask it too). */
  readonly authorizer: Authorizer;
  /**
   * Serves `defs` (each behind its started watch cache), creates the system namespaces and,
   * under Node, fills the node graph from the stored pods and volumes and, under RBAC, the RBAC
   * index from the stored roles and bindings.
   */
  serve(defs: readonly ResourceDefinition[], signal: AbortSignal): Promise<void>;
  /**
   * Resolves once the authorizer decides with these RBAC writes applied (at once when RBAC is
   * not an authorization mode, or the signal aborts). Call after {@link serve}.
   */
  authorizationCaughtUp(writes: readonly RbacWrite[], signal: AbortSignal): Promise<void>;
}

/**
 * Composes the request pipeline: common headers (audit ID, Cache-Control, warnings) → panic
 * recovery → request info → authentication → impersonation →
 * authorization → health | discovery | OpenAPI | resources, over a resource set whose registries
 * share the admission chain. Validates the authorization modes and admission plugins first.
 * @throws AuthorizationModeError, AdmissionConfigError listing every problem.
 */
export function buildApiServer(d: ApiServerDeps): ApiServer {
  const clock = d.clock ?? systemClock;
  const modes = d.authorization?.modes ?? d.authorizationModes ?? DEFAULT_AUTHORIZATION_MODES;
  // RBAC decides from an index of roles and bindings, filled from their watches once served.
  const rbacIndex = modes.includes('RBAC') ? new RbacIndex() : undefined;
  const rbac = rbacIndex && new RbacAuthorizer(rbacIndex);
  // Node decides from a graph of pods and volumes, likewise filled from watches.
  const nodeGraph = modes.includes('Node') ? new NodeGraph() : undefined;
  const node =
    nodeGraph &&
    new NodeAuthorizer({
      graph: nodeGraph,
      domain: d.domain,
      withSelectors: d.gates.enabled(OrchFeatures.AuthorizeNodeWithSelectors),
    });
  const modules = { rbac, node, abac: d.abac };
  const authorizer = d.authorization ? d.authorization.build(modules) : buildAuthorizer(modes, modules);
  let resources: ResourceSet | undefined;
  const currentObjects = resourceSetReader(() => resources, { consistent: true });
  const cachedObjects = resourceSetReader(() => resources);
  const builtin = buildAdmission(
    BUILTIN_ADMISSION_PLUGINS,
    { enable: d.enableAdmissionPlugins, disable: d.disableAdmissionPlugins },
    {
      // Admission reads the namespace from the watch cache, and current when the cache may lag:
      // one just created (not in the cache yet) or just deleted (still active there) counts.
      namespaceLookup: (name, signal) => currentObjects.get(NAMESPACES, '', name, signal),
      cachedNamespaceLookup: (name, signal) => cachedObjects.get(NAMESPACES, '', name, signal),
      immortalNamespaces: immortalNamespaces(d.domain),
      namespaceExemptResources: [{ group: d.domain.group('authorization'), resource: 'localsubjectaccessreviews' }],
      priorityClasses: priorityClassLister(() => resources, d.domain),
      storageClasses: storageClassLister(() => resources, d.domain),
      domain: d.domain,
      nodeRestrictionObjects: {
        pod: (namespace, name, signal) => currentObjects.get(PODS, namespace, name, signal),
        node: (name, signal) => currentObjects.get(NODES, '', name, signal),
      },
    },
  );
  // Escalation prevention is part of the RBAC API itself, not a plugin one could turn off.
  const escalation = rbacEscalationPlugin({
    domain: d.domain,
    authorizer: () => authorizer,
    rbac,
    objects: currentObjects,
  });
  const admission = new AdmissionChain([...builtin.plugins, escalation, ...(d.admissionPlugins ?? [])]);
  const set = new ResourceSet(
    resourceFactory({
      store: d.store,
      keys: d.keys,
      clock,
      uid: randomUUID,
      admission,
      domain: d.domain,
      logger: d.logger,
      bookmarkIntervalMs: BOOKMARK_INTERVAL_MS,
      allowUnsafeMalformedObjectDeletion: d.gates.enabled(OrchFeatures.AllowUnsafeMalformedObjectDeletion),
      writeHooks: d.writeHooks,
    }),
    d.lifetime,
  );
  resources = set;
  const authenticator =
    d.authenticator ??
    buildRequestAuthenticator({
      authenticators: [new X509Authenticator({ credentialIdExtra: d.domain.credentialIdExtra })],
    });
  const auditing = d.audit && { ...d.audit, domain: d.domain, clock };
  const handler = chain(
    [
      commonHeaders(),
      panicRecovery(d.logger),
      requestInfo(),
      authentication(authenticator, d.metrics, auditing && auditFailedAuthentication(auditing)),
      ...(auditing ? [audit(auditing)] : []),
      impersonation(authorizer, d.domain.group('authentication')),
      authorization(authorizer, { withSelectors: d.gates.enabled(OrchFeatures.AuthorizeWithSelectors) }, d.metrics),
      ...(d.metrics ? [requestMetrics(d.metrics)] : []),
    ],
    rootHandler(
      {
        health: d.health,
        openapi: openApiHandler(set, d.domain),
        discovery: discoveryHandler({ resources: set, version: versionInfo(), serverAddress: d.serverAddress }),
        serviceAccountIssuer: d.serviceAccountIssuer && serviceAccountIssuerHandler(d.serviceAccountIssuer),
        index: rootPathsHandler(set, d.health, d.serviceAccountIssuer !== undefined),
        metrics: d.metricsRegistry && metricsHandler(d.metricsRegistry),
      },
      resourceHandler(set, {
        cborEnabled: d.gates.enabled(OrchFeatures.CBORServingAndStorage),
        compression: d.gates.enabled(OrchFeatures.APIResponseCompression),
        now: () => clock.now(),
        encodings: new EncodingCache(),
        minRequestTimeoutSeconds: d.minRequestTimeoutSeconds ?? 1800,
        watchList: d.gates.enabled(OrchFeatures.WatchList),
      }),
    ),
  );
  let feed: RbacIndexFeed | undefined;
  return {
    handler,
    resources: set,
    authorizer,
    async serve(defs, signal) {
      await Promise.all(defs.map((def) => set.add(def)));
      await ensureSystemNamespaces(set, d.domain, signal);
      const feeds = { resources: set, domain: d.domain, logger: d.logger, authorizer, signal: d.lifetime };
      // The two feeds are independent: their first lists run together.
      const [, rbacFeed] = await Promise.all([
        nodeGraph && feedNodeGraph({ ...feeds, graph: nodeGraph }),
        rbacIndex && feedRbacIndex({ ...feeds, index: rbacIndex }),
      ]);
      feed = rbacFeed;
    },
    async authorizationCaughtUp(writes, signal) {
      await feed?.caughtUp(writes, signal);
    },
  };
}

/**
 * Every name derived from the API domain, in one place. The default `orch.io` profile names
 * things after Orch (`coordination.orch.io`, `orch-system`, `application/vnd.orch.protobuf`);
 * the `k8s.io` profile uses kube-apiserver v1.32's names so that unmodified Kubernetes clients
 * (kubectl, client-go, client libraries) reach every API. kube spells some names with
 * `kubernetes.io`, some with `k8s.io` and some with no domain; each entry states both forms.
 *
 * A server is built with one `ApiDomain` and passes it to whatever needs a name; nothing reads a
 * global. `orch.io` / `orch-` literals outside this module are refused by a test.
 */
export type ApiDomainName = 'orch.io' | 'k8s.io';

export const API_DOMAIN_NAMES: readonly ApiDomainName[] = ['orch.io', 'k8s.io'];

export interface ApiDomain {
  readonly name: ApiDomainName;
  /** A named API group: `coordination` → `coordination.orch.io` | `coordination.k8s.io`. */
  group(base: string): string;
  /** `meta.orch.io` | `meta.k8s.io`: Table, PartialObjectMetadata, ListOptions, DeleteOptions, ... */
  readonly metaGroup: string;
  /** `apidiscovery.orch.io` | `apidiscovery.k8s.io`: aggregated discovery. */
  readonly discoveryGroup: string;
  /** `orch-system` | `kube-system`. */
  readonly systemNamespace: string;
  /** `orch-public` | `kube-public`. */
  readonly publicNamespace: string;
  /** `orch-node-lease` | `kube-node-lease`. */
  readonly nodeLeaseNamespace: string;
  /** The namespace finalizer in `spec.finalizers`: `orch` | `kubernetes`. */
  readonly namespaceFinalizer: string;
  /** Label every namespace carries with its name: `orch.io/metadata.name` | `kubernetes.io/metadata.name`. */
  readonly namespaceNameLabel: string;
  /** The Protobuf media type served: `application/vnd.orch.protobuf` | `application/vnd.kubernetes.protobuf`. */
  readonly protobufMediaType: string;
  /** Annotation of the bookmark that ends a watch's initial events: `orch.io/…` | `k8s.io/initial-events-end`. */
  readonly initialEventsEndAnnotation: string;
  /** User extra naming the credential: `authentication.orch.io/credential-id` | `authentication.kubernetes.io/credential-id`. */
  readonly credentialIdExtra: string;
  /**
   * Private claim of service-account tokens holding the namespace, service account and bound
   * objects: `orch.io` | `kubernetes.io`.
   */
  readonly serviceAccountClaim: string;
  /** `iss` of legacy Secret-based service-account tokens: `orch/serviceaccount` | `kubernetes/serviceaccount`. */
  readonly legacyServiceAccountIssuer: string;
  /** User extra naming the pod a service-account token is bound to: `authentication.orch.io/pod-name` | `authentication.kubernetes.io/pod-name`. */
  readonly podNameExtra: string;
  /** User extra with that pod's uid: `authentication.orch.io/pod-uid` | `authentication.kubernetes.io/pod-uid`. */
  readonly podUidExtra: string;
  /** User extra naming the node of a bound token: `authentication.orch.io/node-name` | `authentication.kubernetes.io/node-name`. */
  readonly nodeNameExtra: string;
  /** User extra with that node's uid: `authentication.orch.io/node-uid` | `authentication.kubernetes.io/node-uid`. */
  readonly nodeUidExtra: string;
  /** The controller manager's own user: `system:orch-controller-manager` | `system:kube-controller-manager`. */
  readonly controllerManagerUser: string;
  /** The controller manager's field manager: `orch-controller-manager` | `kube-controller-manager`. */
  readonly controllerManagerName: string;
  /** The API server's field manager for what it writes itself: `orch-apiserver` | `kube-apiserver`. */
  readonly apiServerManager: string;
  /** Cluster and context name in the admin kubeconfig: `orch` | `kubernetes`. */
  readonly kubeconfigName: string;
  /**
   * An OpenAPI definition name from a type's internal name (`io.orch.api.core.v1.ConfigMap`):
   * unchanged | `io.k8s.api.core.v1.ConfigMap`, the names kubectl and generators expect.
   */
  definitionName(internal: string): string;
  /**
   * A label, annotation or secret-type key whose kube form uses `kubernetes.io`:
   * (`bootstrap`, `token`) → `bootstrap.orch.io/token` | `bootstrap.kubernetes.io/token`;
   * ('', `service-account-token`) → `orch.io/service-account-token` | `kubernetes.io/…`.
   */
  key(prefixBase: string, name: string): string;
  /** A product-named kind: `ControllerManagerConfiguration` → `Orch…` | `Kube…`. */
  kindName(suffix: string): string;
  /**
   * The node agent in type and member names (`NodeAgentServingSignerConfiguration`):
   * `NodeAgent` | `Kubelet`.
   */
  readonly nodeAgentTypeName: string;
  /** A product-named system user: `scheduler` → `system:orch-scheduler` | `system:kube-scheduler`. */
  systemUser(component: string): string;
  /** A product-named component (lease, service account, signer): `scheduler` → `orch-scheduler` | `kube-scheduler`. */
  componentName(component: string): string;
  /** An environment variable: `EXEC_INFO` → `ORCH_EXEC_INFO` | `KUBERNETES_EXEC_INFO`. */
  envVar(name: string): string;
}

/** What the two profiles differ in; every name is derived from these. */
interface DomainRoots {
  /** Group suffix: `orch.io` | `k8s.io`. */
  readonly name: ApiDomainName;
  /** Domain of label, annotation and secret-type keys: `orch.io` | `kubernetes.io`. */
  readonly keyDomain: string;
  /** Short product name of namespaces, components and kinds: `orch` | `kube`. */
  readonly product: string;
  /** Long product name of the finalizer, media type, kubeconfig and environment: `orch` | `kubernetes`. */
  readonly longProduct: string;
  /** The node agent in type and member names: `NodeAgent` | `Kubelet`. */
  readonly nodeAgent: string;
}

/** Internal type names are spelled in the default profile's reversed domain. */
const INTERNAL_TYPE_PREFIX = 'io.orch.';

function profile(r: DomainRoots): ApiDomain {
  const group = (base: string) => `${base}.${r.name}`;
  const key = (prefixBase: string, name: string) => `${prefixBase ? `${prefixBase}.` : ''}${r.keyDomain}/${name}`;
  const systemUser = (component: string) => `system:${r.product}-${component}`;
  const typePrefix = `io.${r.name.split('.')[0]}.`;
  return Object.freeze({
    name: r.name,
    group,
    metaGroup: group('meta'),
    discoveryGroup: group('apidiscovery'),
    systemNamespace: `${r.product}-system`,
    publicNamespace: `${r.product}-public`,
    nodeLeaseNamespace: `${r.product}-node-lease`,
    namespaceFinalizer: r.longProduct,
    namespaceNameLabel: key('', 'metadata.name'),
    protobufMediaType: `application/vnd.${r.longProduct}.protobuf`,
    initialEventsEndAnnotation: `${r.name}/initial-events-end`,
    credentialIdExtra: key('authentication', 'credential-id'),
    serviceAccountClaim: r.keyDomain,
    legacyServiceAccountIssuer: `${r.longProduct}/serviceaccount`,
    podNameExtra: key('authentication', 'pod-name'),
    podUidExtra: key('authentication', 'pod-uid'),
    nodeNameExtra: key('authentication', 'node-name'),
    nodeUidExtra: key('authentication', 'node-uid'),
    controllerManagerUser: systemUser('controller-manager'),
    controllerManagerName: `${r.product}-controller-manager`,
    apiServerManager: `${r.product}-apiserver`,
    kubeconfigName: r.longProduct,
    definitionName: (internal: string) =>
      internal.startsWith(INTERNAL_TYPE_PREFIX) ? typePrefix + internal.slice(INTERNAL_TYPE_PREFIX.length) : internal,
    key,
    kindName: (suffix: string) => `${r.product[0].toUpperCase()}${r.product.slice(1)}${suffix}`,
    nodeAgentTypeName: r.nodeAgent,
    systemUser,
    componentName: (component: string) => `${r.product}-${component}`,
    envVar: (name: string) => `${r.longProduct.toUpperCase()}_${name}`,
  });
}

const ORCH = profile({
  name: 'orch.io',
  keyDomain: 'orch.io',
  product: 'orch',
  longProduct: 'orch',
  nodeAgent: 'NodeAgent',
});
const KUBE = profile({
  name: 'k8s.io',
  keyDomain: 'kubernetes.io',
  product: 'kube',
  longProduct: 'kubernetes',
  nodeAgent: 'Kubelet',
});

/** The profile of a domain name. */
export function apiDomain(name: ApiDomainName = 'orch.io'): ApiDomain {
  return name === 'k8s.io' ? KUBE : ORCH;
}

/** The default profile (`orch.io`). */
export const ORCH_DOMAIN: ApiDomain = ORCH;

export function isApiDomainName(s: string): s is ApiDomainName {
  return (API_DOMAIN_NAMES as readonly string[]).includes(s);
}

/** Every name and its two forms, for documentation and tests. */
export function domainNameTable(): { readonly what: string; readonly orch: string; readonly kube: string }[] {
  const rows: [string, (d: ApiDomain) => string][] = [
    ['coordination group', (d) => d.group('coordination')],
    ['meta group (Table, options kinds)', (d) => d.metaGroup],
    ['aggregated discovery group', (d) => d.discoveryGroup],
    ['system namespace', (d) => d.systemNamespace],
    ['public namespace', (d) => d.publicNamespace],
    ['node lease namespace', (d) => d.nodeLeaseNamespace],
    ['namespace finalizer', (d) => d.namespaceFinalizer],
    ['namespace name label', (d) => d.namespaceNameLabel],
    ['Protobuf media type', (d) => d.protobufMediaType],
    ['initial-events-end annotation', (d) => d.initialEventsEndAnnotation],
    ['credential ID user extra', (d) => d.credentialIdExtra],
    ['service account token private claim', (d) => d.serviceAccountClaim],
    ['bound pod user extras', (d) => `${d.podNameExtra}, ${d.podUidExtra}`],
    ['bound node user extras', (d) => `${d.nodeNameExtra}, ${d.nodeUidExtra}`],
    ['controller manager user', (d) => d.controllerManagerUser],
    ['controller manager field manager', (d) => d.controllerManagerName],
    ['API server field manager', (d) => d.apiServerManager],
    ['admin kubeconfig cluster and context', (d) => d.kubeconfigName],
    ['OpenAPI definition names', (d) => d.definitionName('io.orch.api.core.v1.ConfigMap')],
    ['bootstrap token secret type', (d) => d.key('bootstrap', 'token')],
    ['service account token secret type', (d) => d.key('', 'service-account-token')],
    [
      'RBAC defaults label, autoupdate annotation',
      (d) => `${d.key('', 'bootstrapping')}, ${d.key('rbac.authorization', 'autoupdate')}`,
    ],
    ['controller manager configuration kind', (d) => d.kindName('ControllerManagerConfiguration')],
    ['node agent in configuration member names', (d) => `${d.nodeAgentTypeName}ServingSignerConfiguration`],
    ['system component users', (d) => `${d.systemUser('scheduler')}, ${d.systemUser('aggregator')}`],
    ['system component names', (d) => `${d.componentName('scheduler')}, ${d.componentName('dns')}`],
    ['exec credential environment variable', (d) => d.envVar('EXEC_INFO')],
    ['node condition taints', (d) => `${d.key('node', 'not-ready')}, ${d.key('node', 'unreachable')}`],
    ['default StorageClass annotation', (d) => d.key('storageclass', 'is-default-class')],
  ];
  return rows.map(([what, f]) => ({ what, orch: f(ORCH), kube: f(KUBE) }));
}

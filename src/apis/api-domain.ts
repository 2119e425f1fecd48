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
  /** The group base of a served group name (`coordination.k8s.io` → `coordination`), or undefined. */
  groupBase(group: string): string | undefined;
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
  /** A product-named system user: `scheduler` → `system:orch-scheduler` | `system:kube-scheduler`. */
  systemUser(component: string): string;
  /** An environment variable: `EXEC_INFO` → `ORCH_EXEC_INFO` | `KUBERNETES_EXEC_INFO`. */
  envVar(name: string): string;
}

const ORCH: ApiDomain = Object.freeze({
  name: 'orch.io' as const,
  group: (base: string) => `${base}.orch.io`,
  groupBase: (group: string) => (group.endsWith('.orch.io') ? group.slice(0, -'.orch.io'.length) : undefined),
  metaGroup: 'meta.orch.io',
  discoveryGroup: 'apidiscovery.orch.io',
  systemNamespace: 'orch-system',
  publicNamespace: 'orch-public',
  nodeLeaseNamespace: 'orch-node-lease',
  namespaceFinalizer: 'orch',
  namespaceNameLabel: 'orch.io/metadata.name',
  protobufMediaType: 'application/vnd.orch.protobuf',
  initialEventsEndAnnotation: 'orch.io/initial-events-end',
  credentialIdExtra: 'authentication.orch.io/credential-id',
  controllerManagerUser: 'system:orch-controller-manager',
  controllerManagerName: 'orch-controller-manager',
  apiServerManager: 'orch-apiserver',
  kubeconfigName: 'orch',
  definitionName: (internal: string) => internal,
  key: (prefixBase: string, name: string) => `${prefixBase ? `${prefixBase}.` : ''}orch.io/${name}`,
  kindName: (suffix: string) => `Orch${suffix}`,
  systemUser: (component: string) => `system:orch-${component}`,
  envVar: (name: string) => `ORCH_${name}`,
});

const KUBE: ApiDomain = Object.freeze({
  name: 'k8s.io' as const,
  group: (base: string) => `${base}.k8s.io`,
  groupBase: (group: string) => (group.endsWith('.k8s.io') ? group.slice(0, -'.k8s.io'.length) : undefined),
  metaGroup: 'meta.k8s.io',
  discoveryGroup: 'apidiscovery.k8s.io',
  systemNamespace: 'kube-system',
  publicNamespace: 'kube-public',
  nodeLeaseNamespace: 'kube-node-lease',
  namespaceFinalizer: 'kubernetes',
  namespaceNameLabel: 'kubernetes.io/metadata.name',
  protobufMediaType: 'application/vnd.kubernetes.protobuf',
  initialEventsEndAnnotation: 'k8s.io/initial-events-end',
  credentialIdExtra: 'authentication.kubernetes.io/credential-id',
  controllerManagerUser: 'system:kube-controller-manager',
  controllerManagerName: 'kube-controller-manager',
  apiServerManager: 'kube-apiserver',
  kubeconfigName: 'kubernetes',
  definitionName: (internal: string) => (internal.startsWith('io.orch.') ? `io.k8s.${internal.slice(8)}` : internal),
  key: (prefixBase: string, name: string) => `${prefixBase ? `${prefixBase}.` : ''}kubernetes.io/${name}`,
  kindName: (suffix: string) => `Kube${suffix}`,
  systemUser: (component: string) => `system:kube-${component}`,
  envVar: (name: string) => `KUBERNETES_${name}`,
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
    ['system component users', (d) => `${d.systemUser('scheduler')}, ${d.systemUser('aggregator')}`],
    ['exec credential environment variable', (d) => d.envVar('EXEC_INFO')],
  ];
  return rows.map(([what, f]) => ({ what, orch: f(ORCH), kube: f(KUBE) }));
}

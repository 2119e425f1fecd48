import { apiVersionOf, type ResourceDefinition } from '../../apis/resource-definition.js';
import type { ResourceSet } from '../../registry/resource-set/index.js';

/** Pure builders of the discovery documents clients read to learn what the server serves. */

export function apiVersions(serverAddress: string): object {
  return {
    kind: 'APIVersions',
    versions: ['v1'],
    serverAddressByClientCIDRs: [{ clientCIDR: '0.0.0.0/0', serverAddress }],
  };
}

function groupDoc(resources: ResourceSet, group: string): object {
  const versions = resources.versionsOf(group).map((v) => ({ groupVersion: `${group}/${v}`, version: v }));
  return { name: group, versions, preferredVersion: versions[0] };
}

/** The named groups (`/apis`); the core group is served at `/api`. */
export function apiGroupList(resources: ResourceSet): object {
  return {
    kind: 'APIGroupList',
    apiVersion: 'v1',
    groups: resources
      .groups()
      .filter((g) => g !== '')
      .map((g) => groupDoc(resources, g)),
  };
}

export function apiGroup(resources: ResourceSet, group: string): object | undefined {
  if (!group || !resources.groups().includes(group)) return undefined;
  return { kind: 'APIGroup', apiVersion: 'v1', ...groupDoc(resources, group) };
}

export function apiResourceList(resources: ResourceSet, group: string, version: string): object | undefined {
  const served = resources.inGroupVersion(group, version);
  if (served.length === 0) return undefined;
  const list: object[] = [];
  for (const { def } of served) {
    list.push({
      name: def.resource,
      singularName: def.singular,
      namespaced: def.namespaced,
      kind: def.kind,
      verbs: [...def.verbs],
      ...(def.shortNames.length > 0 ? { shortNames: [...def.shortNames] } : {}),
      ...(def.categories.length > 0 ? { categories: [...def.categories] } : {}),
    });
    for (const sub of def.subresources) {
      // A sub-resource of another kind (scale, token) names that kind's group and version when they differ.
      const other = sub.kind ?? sub.create;
      const gv =
        other && (other.group !== group || other.version !== version)
          ? { group: other.group, version: other.version }
          : {};
      list.push({
        name: `${def.resource}/${sub.name}`,
        singularName: '',
        namespaced: def.namespaced,
        ...gv,
        kind: other?.kind ?? sub.connect?.kind ?? def.kind,
        verbs: [...sub.verbs],
      });
    }
  }
  return {
    kind: 'APIResourceList',
    apiVersion: 'v1',
    groupVersion: apiVersionOf({ group, version }),
    resources: list,
  };
}

function discoveryResource(def: ResourceDefinition): object {
  const responseKind = { group: def.group, version: def.version, kind: def.kind };
  return {
    resource: def.resource,
    responseKind,
    scope: def.namespaced ? 'Namespaced' : 'Cluster',
    singularResource: def.singular,
    verbs: [...def.verbs],
    ...(def.shortNames.length > 0 ? { shortNames: [...def.shortNames] } : {}),
    ...(def.categories.length > 0 ? { categories: [...def.categories] } : {}),
    ...(def.subresources.length > 0
      ? {
          subresources: def.subresources.map((s) => {
            const other = s.kind ?? s.create;
            const kind = other
              ? { group: other.group, version: other.version, kind: other.kind }
              : s.connect
                ? { ...responseKind, kind: s.connect.kind }
                : responseKind;
            return { subresource: s.name, responseKind: kind, verbs: [...s.verbs] };
          }),
        }
      : {}),
  };
}

/**
 * Aggregated discovery (`apidiscovery.orch.io/v2`): all groups of one prefix in one document.
 * `legacy` selects the core group (`/api`), otherwise the named groups (`/apis`).
 */
export function aggregatedDiscovery(resources: ResourceSet, legacy: boolean, apiVersion: string): object {
  const groups = resources.groups().filter((g) => (legacy ? g === '' : g !== ''));
  return {
    kind: 'APIGroupDiscoveryList',
    apiVersion,
    metadata: {},
    items: groups.map((g) => ({
      metadata: { name: g, creationTimestamp: null },
      versions: resources.versionsOf(g).map((v) => ({
        version: v,
        resources: resources.inGroupVersion(g, v).map((r) => discoveryResource(r.def)),
        freshness: 'Current',
      })),
    })),
  };
}

import { expectListeners } from '../../util/listener-limit.js';
import type { RestClient } from '../rest/rest-client.js';
import type { ApiResource } from './api-client.js';

/** What discovery says the server serves. */
export interface DiscoveredApi {
  /** Every resource in every served version (no sub-resources as entries). */
  readonly resources: readonly ApiResource[];
  /** group → its served versions, the preferred one first. */
  readonly versions: ReadonlyMap<string, readonly string[]>;
}

/** A discovery document that cannot be read. */
export class DiscoveryError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'DiscoveryError';
  }
}

interface AggregatedResource {
  resource?: string;
  responseKind?: { kind?: string };
  scope?: string;
  verbs?: string[];
  subresources?: { subresource?: string }[];
}

interface AggregatedList {
  kind?: string;
  items?: {
    metadata?: { name?: string };
    versions?: { version?: string; resources?: AggregatedResource[]; freshness?: string }[];
  }[];
}

interface LegacyResourceList {
  resources?: { name?: string; kind?: string; namespaced?: boolean; verbs?: string[] }[];
}

/** The `Accept` that asks for aggregated discovery v2 (falling back to the legacy documents). */
export function aggregatedAccept(discoveryGroup: string): string {
  return `application/json;g=${discoveryGroup};v=v2;as=APIGroupDiscoveryList,application/json`;
}

function fromAggregated(doc: AggregatedList, out: ApiResource[], versions: Map<string, string[]>): void {
  for (const item of doc.items ?? []) {
    const group = item.metadata?.name ?? '';
    const vs: string[] = [];
    for (const v of item.versions ?? []) {
      const version = v.version ?? '';
      if (!version) continue;
      vs.push(version);
      for (const r of v.resources ?? []) {
        if (!r.resource) continue;
        out.push({
          group,
          version,
          resource: r.resource,
          kind: r.responseKind?.kind ?? '',
          namespaced: r.scope === 'Namespaced',
          verbs: [...(r.verbs ?? [])],
          subresources: (r.subresources ?? []).map((s) => s.subresource ?? '').filter(Boolean),
        });
      }
    }
    versions.set(group, vs);
  }
}

function fromLegacy(group: string, version: string, doc: LegacyResourceList, out: ApiResource[]): void {
  const entries = doc.resources ?? [];
  const subs = new Map<string, string[]>();
  for (const e of entries) {
    const [parent, sub] = (e.name ?? '').split('/');
    if (sub) subs.set(parent, [...(subs.get(parent) ?? []), sub]);
  }
  for (const e of entries) {
    if (!e.name || e.name.includes('/')) continue;
    out.push({
      group,
      version,
      resource: e.name,
      kind: e.kind ?? '',
      namespaced: e.namespaced === true,
      verbs: [...(e.verbs ?? [])],
      subresources: subs.get(e.name) ?? [],
    });
  }
}

/**
 * Reads the server's discovery: aggregated discovery (`/api` and `/apis` as
 * `APIGroupDiscoveryList`, two requests) when the server serves it, else the legacy documents
 * (`/api`, `/apis`, then one resource list per group version). `o.legacy` asks for the legacy
 * documents only (servers without aggregated discovery; tests).
 * @throws StatusError or DiscoveryError when a document cannot be read.
 */
export async function discover(
  rest: RestClient,
  discoveryGroup: string,
  signal: AbortSignal,
  o: { readonly legacy?: boolean } = {},
): Promise<DiscoveredApi> {
  const resources: ApiResource[] = [];
  const versions = new Map<string, string[]>();
  const accept = o.legacy ? 'application/json' : aggregatedAccept(discoveryGroup);
  const [core, named] = await Promise.all([
    rest.call<AggregatedList & { versions?: string[] }>({ method: 'GET', path: '/api', accept }, signal),
    rest.call<
      AggregatedList & {
        groups?: { name?: string; versions?: { version?: string }[]; preferredVersion?: { version?: string } }[];
      }
    >({ method: 'GET', path: '/apis', accept }, signal),
  ]);
  if (core.kind === 'APIGroupDiscoveryList' && named.kind === 'APIGroupDiscoveryList') {
    fromAggregated(core, resources, versions);
    fromAggregated(named, resources, versions);
    return { resources, versions };
  }
  if (core.kind !== 'APIVersions' || named.kind !== 'APIGroupList') {
    throw new DiscoveryError(`unexpected discovery documents: /api is ${core.kind}, /apis is ${named.kind}`);
  }
  const gvs: { group: string; version: string }[] = [];
  versions.set('', [...(core.versions ?? [])]);
  for (const v of core.versions ?? []) gvs.push({ group: '', version: v });
  for (const g of named.groups ?? []) {
    const name = g.name ?? '';
    const preferred = g.preferredVersion?.version;
    const listed = (g.versions ?? []).map((v) => v.version ?? '').filter(Boolean);
    const vs = preferred && listed.includes(preferred) ? [preferred, ...listed.filter((v) => v !== preferred)] : listed;
    versions.set(name, vs);
    for (const v of vs) gvs.push({ group: name, version: v });
  }
  // Every document is read at once, each request listening to the caller's signal.
  expectListeners(signal, gvs.length + 1);
  const lists = await Promise.all(
    gvs.map(({ group, version }) =>
      rest.call<LegacyResourceList>(
        { method: 'GET', path: group ? `/apis/${group}/${version}` : `/api/${version}` },
        signal,
      ),
    ),
  );
  for (const [i, doc] of lists.entries()) fromLegacy(gvs[i].group, gvs[i].version, doc, resources);
  return { resources, versions };
}

/** `group/version/resource`, the key of a resource in one version. */
export function resourceKey(r: Pick<ApiResource, 'group' | 'version' | 'resource'>): string {
  return `${r.group}/${r.version}/${r.resource}`;
}

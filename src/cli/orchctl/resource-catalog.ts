/**
 * The served resources as kubectl's RESTMapper sees them, read from aggregated discovery: plural,
 * singular and short names, kind, categories, verbs, scope, preferred version first. Resolves a
 * command-line resource argument (`cm`, `configmap`, `ConfigMap`, `deployments.apps`,
 * `deployments.v1.apps`) to one resource of its preferred version.
 */
import type { RestClient } from '../../client/rest/rest-client.js';
import { CommandError, type Session } from './cli-session.js';

/** One resource of one served version. */
export interface CatalogResource {
  readonly group: string;
  readonly version: string;
  readonly resource: string;
  readonly singular: string;
  readonly shortNames: readonly string[];
  readonly kind: string;
  readonly namespaced: boolean;
  readonly verbs: readonly string[];
  readonly categories: readonly string[];
  /** The group's preferred version is this one. */
  readonly preferred: boolean;
}

interface DiscoveryDoc {
  kind?: string;
  items?: {
    metadata?: { name?: string };
    versions?: {
      version?: string;
      resources?: {
        resource?: string;
        singularResource?: string;
        shortNames?: string[];
        categories?: string[];
        responseKind?: { kind?: string };
        scope?: string;
        verbs?: string[];
      }[];
    }[];
  }[];
}

/** The session's resource catalog (see {@link readCatalog}). */
export function sessionCatalog(s: Pick<Session, 'client' | 'domain' | 'signal'>): Promise<CatalogResource[]> {
  return readCatalog(s.client.rest, s.domain.discoveryGroup, s.signal);
}

/** Reads the aggregated discovery documents of `/api` and `/apis` (core group first). */
export async function readCatalog(
  rest: RestClient,
  discoveryGroup: string,
  signal: AbortSignal,
): Promise<CatalogResource[]> {
  const accept = `application/json;g=${discoveryGroup};v=v2;as=APIGroupDiscoveryList`;
  const out: CatalogResource[] = [];
  for (const path of ['/api', '/apis']) {
    const doc = await rest.call<DiscoveryDoc>({ method: 'GET', path, accept }, signal);
    for (const item of doc.items ?? []) {
      const group = item.metadata?.name ?? '';
      for (const [i, v] of (item.versions ?? []).entries()) {
        for (const r of v.resources ?? []) {
          if (!r.resource) continue;
          out.push({
            group,
            version: v.version ?? '',
            resource: r.resource,
            singular: r.singularResource ?? '',
            shortNames: r.shortNames ?? [],
            kind: r.responseKind?.kind ?? '',
            namespaced: r.scope === 'Namespaced',
            verbs: r.verbs ?? [],
            categories: r.categories ?? [],
            preferred: i === 0,
          });
        }
      }
    }
  }
  return out;
}

/** `apiVersion` of a resource: `v1` or `<group>/<version>`. */
export function apiVersionOf(r: Pick<CatalogResource, 'group' | 'version'>): string {
  return r.group ? `${r.group}/${r.version}` : r.version;
}

/** `configmap` | `deployment.apps`: kubectl's lowercase kind name used in output. */
export function kindName(kind: string, group: string): string {
  return group ? `${kind.toLowerCase()}.${group}` : kind.toLowerCase();
}

function names(r: CatalogResource): string[] {
  return [r.resource, r.singular, r.kind.toLowerCase(), ...r.shortNames].filter(Boolean);
}

/**
 * The resource `arg` names, in its group's preferred version unless a version is given.
 * @throws CommandError `the server doesn't have a resource type "<arg>"`.
 */
export function resolveResource(catalog: readonly CatalogResource[], arg: string): CatalogResource {
  const found = findResource(catalog, arg);
  if (!found) throw new CommandError(`the server doesn't have a resource type "${arg}"`);
  return found;
}

/** As {@link resolveResource}, undefined when nothing matches. */
export function findResource(catalog: readonly CatalogResource[], arg: string): CatalogResource | undefined {
  const lower = arg.toLowerCase();
  const [head, ...rest] = lower.split('.');
  const candidates: { group?: string; version?: string }[] = [{}];
  if (rest.length > 0) {
    candidates.length = 0;
    candidates.push({ group: rest.join('.') });
    if (rest.length > 1) candidates.push({ version: rest[0], group: rest.slice(1).join('.') });
  }
  for (const c of candidates) {
    const name = rest.length > 0 ? head : lower;
    const matches = catalog.filter(
      (r) =>
        names(r).includes(name) &&
        (c.group === undefined || r.group === c.group) &&
        (c.version === undefined ? r.preferred : r.version === c.version),
    );
    if (matches.length > 0) return matches.find((r) => r.resource === name) ?? matches[0];
  }
  if (rest.length === 0) return undefined;
  // `resource.group` where the group itself contains dots and the whole argument is one name.
  return catalog.find((r) => r.preferred && names(r).includes(lower));
}

/** The preferred-version resources listing `category` (`all`), in discovery order. */
export function categoryMembers(catalog: readonly CatalogResource[], category: string): CatalogResource[] {
  const c = category.toLowerCase();
  return catalog.filter((r) => r.preferred && r.categories.includes(c));
}

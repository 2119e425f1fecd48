import type { ResourceDefinition } from '../apis/resource-definition.js';
import type { ResourceStore } from '../registry/types.js';

/** One served resource: its definition and its registry. */
export interface ServedResource {
  readonly def: ResourceDefinition;
  readonly store: ResourceStore;
}

/** The resources the server serves, indexed by group, version and resource name. */
export class ServedResources {
  private readonly byPath = new Map<string, ServedResource>();
  private readonly ordered: ServedResource[] = [];

  constructor(resources: readonly ServedResource[]) {
    for (const r of resources) {
      this.byPath.set(pathKey(r.def.group, r.def.version, r.def.resource), r);
      this.ordered.push(r);
    }
  }

  lookup(group: string, version: string, resource: string): ServedResource | undefined {
    return this.byPath.get(pathKey(group, version, resource));
  }

  all(): readonly ServedResource[] {
    return this.ordered;
  }

  /** Group names in serving order; the core group is the empty string. */
  groups(): string[] {
    return [...new Set(this.ordered.map((r) => r.def.group))];
  }

  versionsOf(group: string): string[] {
    return [...new Set(this.ordered.filter((r) => r.def.group === group).map((r) => r.def.version))];
  }

  inGroupVersion(group: string, version: string): ServedResource[] {
    return this.ordered.filter((r) => r.def.group === group && r.def.version === version);
  }
}

function pathKey(group: string, version: string, resource: string): string {
  return `${group}/${version}/${resource}`;
}

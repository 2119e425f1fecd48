import type { OwnerReference } from '../../apis/object.js';
import type { ResourceSet, ServedResource } from '../../registry/resource-set/index.js';

/** Splits `group/version` (or a bare core `version`). */
function parseApiVersion(apiVersion: string): { group: string; version: string } {
  const i = apiVersion.indexOf('/');
  return i < 0
    ? { group: '', version: apiVersion }
    : { group: apiVersion.slice(0, i), version: apiVersion.slice(i + 1) };
}

/**
 * Maps an owner reference's apiVersion and kind to the served resource holding such owners (the
 * REST mapping of kube's garbage collector). A kind served in another version of the same group
 * still resolves: the owner is the same object whatever version names it.
 */
export class OwnerResolver {
  private readonly exact = new Map<string, ServedResource>();
  private readonly byGroupKind = new Map<string, ServedResource>();

  constructor(resources: ResourceSet) {
    for (const served of resources.all()) {
      const d = served.def;
      this.exact.set(`${d.group}/${d.version}/${d.kind}`, served);
      if (!this.byGroupKind.has(`${d.group}/${d.kind}`)) this.byGroupKind.set(`${d.group}/${d.kind}`, served);
    }
  }

  resolve(ref: Pick<OwnerReference, 'apiVersion' | 'kind'>): ServedResource | undefined {
    const { group, version } = parseApiVersion(ref.apiVersion ?? '');
    return this.exact.get(`${group}/${version}/${ref.kind}`) ?? this.byGroupKind.get(`${group}/${ref.kind}`);
  }
}

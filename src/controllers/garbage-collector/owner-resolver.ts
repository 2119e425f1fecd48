import type { OwnerReference } from '../../apis/object.js';
import type { ApiClient, ResourceClient } from '../../client/api/api-client.js';

/** Splits `group/version` (or a bare core `version`). */
function parseApiVersion(apiVersion: string): { group: string; version: string } {
  const i = apiVersion.indexOf('/');
  return i < 0
    ? { group: '', version: apiVersion }
    : { group: apiVersion.slice(0, i), version: apiVersion.slice(i + 1) };
}

/**
 * Maps an owner reference's apiVersion and kind to the client of the resource holding such
 * owners (the REST mapping of kube's garbage collector), from what the client serves now (custom
 * resources included). A kind served in another version of the same group still resolves: the
 * owner is the same object whatever version names it.
 */
export class OwnerResolver {
  constructor(private readonly client: ApiClient) {}

  resolve(ref: Pick<OwnerReference, 'apiVersion' | 'kind'>): ResourceClient | undefined {
    const { group, version } = parseApiVersion(ref.apiVersion ?? '');
    const exact = this.client
      .resources()
      .find((r) => r.group === group && r.version === version && r.kind === ref.kind);
    if (exact) {
      const c = this.client.resource(group, version, exact.resource);
      if (c) return c;
    }
    return this.client.forKind(group, ref.kind);
  }
}

import type { ApiDomain } from '../../apis/api-domain.js';
import type { ApiObject } from '../../apis/object.js';

/**
 * A served resource and the TypeScript type of its objects, for typed clients
 * (`client.typed(ConfigMaps)`). The object type is carried at the type level only; the
 * descriptor itself names the resource. Built-in kinds have descriptors in `builtin-types.ts`;
 * define one for a custom resource with {@link resourceType}.
 */
export interface ResourceType<T extends ApiObject> {
  /**
   * The API group: `''` (core), a fixed group (`apps`, `example.com`), or, with
   * `domainGroup`, the base the API domain completes (`coordination` → `coordination.<domain>`).
   */
  readonly group: string;
  /** True when `group` is completed with the API domain's suffix. */
  readonly domainGroup?: boolean;
  readonly version: string;
  /** Lowercase plural (`configmaps`). */
  readonly resource: string;
  readonly kind: string;
  readonly namespaced: boolean;
  /** Never set: ties the descriptor to the object type `T`. */
  objectType?(object: T): T;
}

/** A descriptor of the resource `group/version/resource` whose objects are `T`. */
export function resourceType<T extends ApiObject>(r: Omit<ResourceType<T>, 'objectType'>): ResourceType<T> {
  return Object.freeze({ ...r });
}

/** The full group name of `type` under `domain`. */
export function groupOf(type: Pick<ResourceType<ApiObject>, 'group' | 'domainGroup'>, domain: ApiDomain): string {
  return type.domainGroup ? domain.group(type.group) : type.group;
}

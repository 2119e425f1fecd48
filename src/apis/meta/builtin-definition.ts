import type { ResourceDefinition } from '../resource-definition.js';
import type { SubresourceWithStrategy } from './resource-strategy.js';

/** The verbs of an ordinary resource, sorted as kube's discovery lists them. */
export const STANDARD_VERBS: readonly string[] = [
  'create',
  'delete',
  'deletecollection',
  'get',
  'list',
  'patch',
  'update',
  'watch',
];

/**
 * A `ResourceDefinition` of a compiled-in kind, with what only the OpenAPI documents use (the
 * descriptions of its list kind) and sub-resources that carry their own strategy.
 */
export interface BuiltinResourceDefinition extends ResourceDefinition {
  readonly subresources: readonly SubresourceWithStrategy[];
  /** Description of `<Kind>List`. */
  readonly listDescription?: string;
  /** Description of `<Kind>List.items`. */
  readonly listItemsDescription?: string;
  /** Description of `<Kind>List.metadata`. */
  readonly listMetadataDescription?: string;
  /** A feature gate the resource is served only with (besides being enabled by `--runtime-config`). */
  readonly featureGate?: string;
}

import type { VirtualCreate } from '../resource-definition.js';
import type { Schema } from '../schema/schema.js';
import type { BuiltinResourceDefinition } from './builtin-definition.js';
import { schemaStrategy } from './resource-strategy.js';

/** What distinguishes one computed (create-only, unstored) resource from another. */
export interface VirtualResourceNames {
  readonly group: string;
  readonly version: string;
  readonly kind: string;
  readonly resource: string;
  readonly singular: string;
  readonly namespaced: boolean;
  readonly schema: Schema;
}

/**
 * The definition of a resource that stores nothing and answers POST with `virtual.create`
 * (the review APIs): verbs `create` only, no sub-resources, no list of its own.
 */
export function virtualResource(names: VirtualResourceNames, virtual: VirtualCreate): BuiltinResourceDefinition {
  return {
    group: names.group,
    version: names.version,
    kind: names.kind,
    listKind: `${names.kind}List`,
    resource: names.resource,
    singular: names.singular,
    namespaced: names.namespaced,
    shortNames: [],
    categories: [],
    verbs: ['create'],
    subresources: [],
    allowCreateOnUpdate: false,
    hasGeneration: false,
    schema: names.schema,
    strategy: schemaStrategy({ schema: names.schema, namespaced: names.namespaced }),
    virtual,
  };
}

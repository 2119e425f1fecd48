import { nameIsDNSSubdomain } from '../../src/apis/meta/name-validation.js';
import { objectMetaField } from '../../src/apis/meta/object-meta-schema.js';
import { schemaStrategy } from '../../src/apis/meta/resource-strategy.js';
import { apiVersionField, kindField } from '../../src/apis/meta/type-meta-fields.js';
import type { ApiObject } from '../../src/apis/object.js';
import type { ResourceDefinition, StorageVersionConversion } from '../../src/apis/resource-definition.js';
import type { Schema } from '../../src/apis/schema/schema.js';

/**
 * One resource in two versions, `gadgets.test.orch.io` v1 and v2, stored in v2: v1's
 * `spec.count` is v2's `spec.replicas`, and v2's `spec.color`, which v1 lacks, travels in the
 * `test.orch.io/color` annotation of v1 objects.
 */
export const COLOR_ANNOTATION = 'test.orch.io/color';

function gadgetSchema(spec: Record<string, Schema>): Schema {
  return {
    type: 'object',
    properties: {
      apiVersion: apiVersionField,
      kind: kindField,
      metadata: objectMetaField(),
      spec: { type: 'object', properties: spec },
    },
  };
}

const v1Schema = gadgetSchema({ count: { type: 'integer', format: 'int32' } });
const v2Schema = gadgetSchema({ replicas: { type: 'integer', format: 'int32' }, color: { type: 'string' } });

type Spec = Record<string, unknown>;

export const gadgetV1Conversion: StorageVersionConversion = {
  apiVersion: 'test.orch.io/v2',
  toStorage(obj) {
    const { count, ...rest } = (obj.spec ?? {}) as Spec;
    const { [COLOR_ANNOTATION]: color, ...annotations } = obj.metadata.annotations ?? {};
    const metadata: ApiObject['metadata'] = { ...obj.metadata, annotations };
    if (Object.keys(annotations).length === 0) delete metadata.annotations;
    const spec: Spec = { ...rest };
    if (count !== undefined) spec.replicas = count;
    if (color !== undefined) spec.color = color;
    return { ...obj, apiVersion: 'test.orch.io/v2', metadata, spec };
  },
  fromStorage(stored) {
    const { replicas, color, ...rest } = (stored.spec ?? {}) as Spec;
    const metadata = { ...stored.metadata };
    if (typeof color === 'string')
      metadata.annotations = { ...(metadata.annotations ?? {}), [COLOR_ANNOTATION]: color };
    const spec: Spec = { ...rest };
    if (replicas !== undefined) spec.count = replicas;
    return { ...stored, apiVersion: 'test.orch.io/v1', metadata, spec } as ApiObject;
  },
};

function gadgetDefinition(version: 'v1' | 'v2', schema: Schema): ResourceDefinition {
  return {
    group: 'test.orch.io',
    version,
    kind: 'Gadget',
    listKind: 'GadgetList',
    resource: 'gadgets',
    singular: 'gadget',
    namespaced: true,
    shortNames: [],
    categories: [],
    verbs: ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'],
    subresources: [],
    allowCreateOnUpdate: false,
    hasGeneration: true,
    schema,
    protobuf: false,
    storageVersion: version === 'v1' ? gadgetV1Conversion : undefined,
    strategy: schemaStrategy({ schema, namespaced: true, nameValidator: nameIsDNSSubdomain }),
  };
}

export const gadgetV1 = (): ResourceDefinition => gadgetDefinition('v1', v1Schema);
export const gadgetV2 = (): ResourceDefinition => gadgetDefinition('v2', v2Schema);

/** The group of {@link gadgetView}. */
export const VIEW_GROUP = 'view.test.orch.io';

/**
 * `gadgets.view.test.orch.io` v1: the v1 form of the same objects in another group, stored
 * under `gadgets.test.orch.io`'s keys (as events.<domain>/v1 views core events).
 */
export function gadgetView(): ResourceDefinition {
  const conversion: StorageVersionConversion = {
    ...gadgetV1Conversion,
    fromStorage: (stored) => ({ ...gadgetV1Conversion.fromStorage(stored), apiVersion: `${VIEW_GROUP}/v1` }),
  };
  return {
    ...gadgetV1(),
    group: VIEW_GROUP,
    storageResource: { group: 'test.orch.io', resource: 'gadgets' },
    storageVersion: conversion,
  };
}

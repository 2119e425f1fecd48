import { fieldErrors } from '../../src/apis/meta/field-error.js';
import { nameIsDNSSubdomain } from '../../src/apis/meta/name-validation.js';
import { objectMetaField } from '../../src/apis/meta/object-meta-schema.js';
import { schemaStrategy } from '../../src/apis/meta/resource-strategy.js';
import { apiVersionField, kindField } from '../../src/apis/meta/type-meta-fields.js';
import type { ApiObject } from '../../src/apis/object.js';
import type { ResourceDefinition, SubresourceKind } from '../../src/apis/resource-definition.js';
import type { Schema } from '../../src/apis/schema/schema.js';

/** A kind defined by a test at run time: `widgets.test.orch.io/v1`, with `scale`. */
const widgetSchema: Schema = {
  type: 'object',
  properties: {
    apiVersion: apiVersionField,
    kind: kindField,
    metadata: objectMetaField(),
    spec: {
      type: 'object',
      properties: {
        replicas: { type: 'integer', format: 'int32' },
        color: { type: 'string' },
        big: { type: 'integer', format: 'int64' },
      },
    },
    status: { type: 'object', properties: { replicas: { type: 'integer', format: 'int32' } } },
  },
};

const scaleSchema: Schema = {
  type: 'object',
  properties: {
    apiVersion: apiVersionField,
    kind: kindField,
    metadata: objectMetaField(),
    spec: { type: 'object', properties: { replicas: { type: 'integer', format: 'int32' } } },
    status: {
      type: 'object',
      properties: { replicas: { type: 'integer', format: 'int32' }, selector: { type: 'string' } },
    },
  },
};

interface Widget extends ApiObject {
  spec?: { replicas?: number; color?: string };
  status?: { replicas?: number };
}

const scaleKind: SubresourceKind = {
  group: 'autoscaling',
  version: 'v1',
  kind: 'Scale',
  schema: scaleSchema,
  toSubresource(parent) {
    const w = parent as Widget;
    const m = w.metadata;
    return {
      apiVersion: 'autoscaling/v1',
      kind: 'Scale',
      metadata: {
        name: m.name,
        namespace: m.namespace,
        uid: m.uid,
        resourceVersion: m.resourceVersion,
        creationTimestamp: m.creationTimestamp,
      },
      spec: { replicas: w.spec?.replicas ?? 0 },
      status: { replicas: w.status?.replicas ?? 0 },
    } as ApiObject;
  },
  toParent(parent, sub) {
    const replicas = (sub as { spec?: { replicas?: unknown } }).spec?.replicas;
    if (typeof replicas !== 'number' || replicas < 0) {
      return [fieldErrors.invalid('spec.replicas', replicas, 'must be greater than or equal to 0')];
    }
    const w = parent as Widget;
    w.spec = { ...(w.spec ?? {}), replicas };
    return w;
  },
};

export function widgetDefinition(o: { protobuf?: boolean } = {}): ResourceDefinition {
  return {
    group: 'test.orch.io',
    version: 'v1',
    kind: 'Widget',
    listKind: 'WidgetList',
    resource: 'widgets',
    singular: 'widget',
    namespaced: true,
    shortNames: [],
    categories: [],
    verbs: ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'],
    subresources: [{ name: 'scale', verbs: ['get', 'patch', 'update'], kind: scaleKind, resetFields: ['status'] }],
    allowCreateOnUpdate: false,
    hasGeneration: true,
    schema: widgetSchema,
    protobuf: o.protobuf,
    strategy: schemaStrategy<Widget>({ schema: widgetSchema, namespaced: true, nameValidator: nameIsDNSSubdomain }),
  };
}

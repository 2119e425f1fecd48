import { type ApiDomain, ORCH_DOMAIN } from '../api-domain.js';
import { type BuiltinResourceDefinition, STANDARD_VERBS } from '../meta/builtin-definition.js';
import type { FieldError } from '../meta/field-error.js';
import { nameIsDNSSubdomain } from '../meta/name-validation.js';
import { nativeValidationSchema } from '../meta/native-validation-schema.js';
import { validateObjectMetaUpdate } from '../meta/object-meta-validation.js';
import { schemaStrategy, subresourceStrategy } from '../meta/resource-strategy.js';
import type { ApiObject } from '../object.js';
import type { Schema } from '../schema/schema.js';
import { validateFlowControlStatus, validateFlowSchema } from './flow-schema-validation.js';
import { flowSchemaTableColumns, priorityLevelTableColumns } from './flowcontrol-columns.js';
import { defaultFlowSchema, defaultPriorityLevel } from './flowcontrol-defaults.js';
import type { FlowSchema, PriorityLevelConfiguration } from './flowcontrol-types.js';
import { flowSchemaSchema, priorityLevelConfigurationSchema } from './flowcontrol-v1-schemas.js';
import { validatePriorityLevel } from './priority-level-validation.js';

interface KindRules<T extends ApiObject> {
  readonly kind: string;
  readonly resource: string;
  readonly schema: Schema;
  readonly defaults: (obj: T) => void;
  readonly validate: (obj: T) => FieldError[];
  readonly listDescription: string;
}

/**
 * One flowcontrol kind: generation counted from 1, v1 defaults, status reset on create and kept
 * by the main resource; `status` changes only the status (unique, non-empty condition types).
 */
function flowControlDefinition<T extends FlowSchema | PriorityLevelConfiguration>(
  domain: ApiDomain,
  k: KindRules<T>,
): BuiltinResourceDefinition {
  const schema = nativeValidationSchema(k.schema);
  return {
    group: domain.group('flowcontrol.apiserver'),
    version: 'v1',
    kind: k.kind,
    listKind: `${k.kind}List`,
    resource: k.resource,
    singular: k.kind.toLowerCase(),
    namespaced: false,
    shortNames: [],
    categories: [],
    verbs: STANDARD_VERBS,
    subresources: [
      {
        name: 'status',
        verbs: ['get', 'patch', 'update'],
        resetFields: ['spec'],
        strategy: subresourceStrategy<T>({
          schema,
          prepareForUpdate: (obj, old) => {
            obj.spec = structuredClone(old.spec) as T['spec'];
          },
          validateUpdate: (obj, old) => [
            ...validateObjectMetaUpdate(obj.metadata, old.metadata),
            ...validateFlowControlStatus(obj.status?.conditions),
          ],
        }),
      },
    ],
    allowCreateOnUpdate: false,
    hasGeneration: true,
    schema: k.schema,
    resetFields: ['status'],
    strategy: schemaStrategy<T>({
      schema,
      namespaced: false,
      nameValidator: nameIsDNSSubdomain,
      defaults: (obj) => k.defaults(obj),
      prepareForCreate: (obj) => {
        delete obj.status;
      },
      prepareForUpdate: (obj, old) => {
        if (old.status === undefined) delete obj.status;
        else obj.status = structuredClone(old.status);
      },
      validateCreate: k.validate,
      validateUpdate: k.validate,
    }),
    listDescription: k.listDescription,
  };
}

/** `flowschemas`. */
export function flowSchemaResource(domain: ApiDomain = ORCH_DOMAIN): BuiltinResourceDefinition {
  return {
    ...flowControlDefinition<FlowSchema>(domain, {
      kind: 'FlowSchema',
      resource: 'flowschemas',
      schema: flowSchemaSchema,
      defaults: defaultFlowSchema,
      validate: validateFlowSchema,
      listDescription: 'A list of flow schemas.',
    }),
    tableColumns: flowSchemaTableColumns(flowSchemaSchema),
  };
}

/** `prioritylevelconfigurations`. */
export function priorityLevelConfigurationResource(domain: ApiDomain = ORCH_DOMAIN): BuiltinResourceDefinition {
  return {
    ...flowControlDefinition<PriorityLevelConfiguration>(domain, {
      kind: 'PriorityLevelConfiguration',
      resource: 'prioritylevelconfigurations',
      schema: priorityLevelConfigurationSchema,
      defaults: defaultPriorityLevel,
      validate: (pl) => validatePriorityLevel(pl, domain),
      listDescription: 'A list of priority level configurations.',
    }),
    tableColumns: priorityLevelTableColumns(priorityLevelConfigurationSchema),
  };
}

/** The kinds of `flowcontrol.apiserver.<domain>/v1`. */
export function flowcontrolResources(domain: ApiDomain = ORCH_DOMAIN): BuiltinResourceDefinition[] {
  return [flowSchemaResource(domain), priorityLevelConfigurationResource(domain)];
}

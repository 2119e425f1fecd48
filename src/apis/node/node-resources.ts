import { type ApiDomain, ORCH_DOMAIN } from '../api-domain.js';
import { type BuiltinResourceDefinition, STANDARD_VERBS } from '../meta/builtin-definition.js';
import { nameIsDNSSubdomain } from '../meta/name-validation.js';
import { nativeValidationSchema } from '../meta/native-validation-schema.js';
import { schemaStrategy } from '../meta/resource-strategy.js';
import { runtimeClassTableColumns } from './node-columns.js';
import { runtimeClassSchema } from './node-v1-schemas.js';
import { type RuntimeClass, validateRuntimeClass, validateRuntimeClassUpdate } from './runtime-class-validation.js';

/** `node.<domain>/v1` `runtimeclasses` (cluster-scoped): a DNS-label handler that never changes. */
export function runtimeClassResource(domain: ApiDomain = ORCH_DOMAIN): BuiltinResourceDefinition {
  return {
    group: domain.group('node'),
    version: 'v1',
    kind: 'RuntimeClass',
    listKind: 'RuntimeClassList',
    resource: 'runtimeclasses',
    singular: 'runtimeclass',
    namespaced: false,
    shortNames: [],
    categories: [],
    verbs: STANDARD_VERBS,
    subresources: [],
    allowCreateOnUpdate: false,
    hasGeneration: false,
    schema: runtimeClassSchema,
    strategy: schemaStrategy<RuntimeClass>({
      schema: nativeValidationSchema(runtimeClassSchema),
      namespaced: false,
      nameValidator: nameIsDNSSubdomain,
      validateCreate: validateRuntimeClass,
      validateUpdate: (rc, old) => [...validateRuntimeClass(rc), ...validateRuntimeClassUpdate(rc, old)],
    }),
    tableColumns: runtimeClassTableColumns(runtimeClassSchema),
    listDescription: 'A list of runtime classes.',
  };
}

/** The kinds of `node.<domain>/v1`. */
export function nodeResources(domain: ApiDomain = ORCH_DOMAIN): BuiltinResourceDefinition[] {
  return [runtimeClassResource(domain)];
}

import { type ApiDomain, ORCH_DOMAIN } from '../api-domain.js';
import { type BuiltinResourceDefinition, STANDARD_VERBS } from '../meta/builtin-definition.js';
import { nameIsDNSSubdomain } from '../meta/name-validation.js';
import { nativeValidationSchema } from '../meta/native-validation-schema.js';
import { schemaStrategy } from '../meta/resource-strategy.js';
import {
  defaultPriorityClass,
  type PriorityClass,
  validatePriorityClass,
  validatePriorityClassUpdate,
} from './priority-class-validation.js';
import { priorityClassTableColumns } from './scheduling-columns.js';
import { priorityClassSchema } from './scheduling-v1-schemas.js';
import { isSystemPriorityClassName } from './system-priority-classes.js';

/**
 * `scheduling.<domain>/v1` `priorityclasses` (short name `pc`, cluster-scoped): names are DNS
 * subdomains, `preemptionPolicy` defaults to PreemptLowerPriority, `value` and
 * `preemptionPolicy` never change, `system-` names are reserved, and the two system classes cannot
 * be deleted one by one (kube's message). The `Priority` admission plugin keeps one global default.
 */
export function priorityClassResource(domain: ApiDomain = ORCH_DOMAIN): BuiltinResourceDefinition {
  return {
    group: domain.group('scheduling'),
    version: 'v1',
    kind: 'PriorityClass',
    listKind: 'PriorityClassList',
    resource: 'priorityclasses',
    singular: 'priorityclass',
    namespaced: false,
    shortNames: ['pc'],
    categories: [],
    verbs: STANDARD_VERBS,
    subresources: [],
    allowCreateOnUpdate: false,
    hasGeneration: false,
    schema: priorityClassSchema,
    strategy: schemaStrategy<PriorityClass>({
      schema: nativeValidationSchema(priorityClassSchema),
      namespaced: false,
      nameValidator: nameIsDNSSubdomain,
      defaults: defaultPriorityClass,
      validateCreate: validatePriorityClass,
      validateUpdate: validatePriorityClassUpdate,
      refuseDelete: (name) =>
        isSystemPriorityClassName(name) ? 'this is a system priority class and cannot be deleted' : undefined,
    }),
    tableColumns: priorityClassTableColumns(priorityClassSchema),
    listDescription: 'A list of priority classes.',
  };
}

/** The kinds of `scheduling.<domain>/v1`. */
export function schedulingResources(domain: ApiDomain = ORCH_DOMAIN): BuiltinResourceDefinition[] {
  return [priorityClassResource(domain)];
}

/**
 * policy/v1 `poddisruptionbudgets` (with `status`), as kube-apiserver v1.32 serves them. The
 * Eviction kind of this group is a sub-resource of pods (`pods/<name>/eviction`).
 */
import { type ApiDomain, ORCH_DOMAIN } from '../api-domain.js';
import { type BuiltinResourceDefinition, STANDARD_VERBS } from '../meta/builtin-definition.js';
import { nameIsDNSSubdomain } from '../meta/name-validation.js';
import { nativeValidationSchema } from '../meta/native-validation-schema.js';
import { standardFinalizers, validateObjectMetaUpdate } from '../meta/object-meta-validation.js';
import { schemaStrategy, subresourceStrategy } from '../meta/resource-strategy.js';
import { hasInvalidLabelValue } from '../rbac/label-selector-validation.js';
import { cloneJson } from '../schema/json-value.js';
import { pdbTableColumns } from './pdb-columns.js';
import {
  fillStatusCounters,
  type PodDisruptionBudget,
  resetBudgetStatus,
  validatePodDisruptionBudget,
  validatePodDisruptionBudgetStatus,
} from './pdb-rules.js';
import { podDisruptionBudgetSchema } from './policy-v1-schemas.js';

/** The policy group: no domain suffix, in either profile. */
export const POLICY_GROUP = 'policy';

/** policy/v1 `poddisruptionbudgets` (short name `pdb`). */
export function podDisruptionBudgetResource(domain: ApiDomain = ORCH_DOMAIN): BuiltinResourceDefinition {
  const schema = nativeValidationSchema(podDisruptionBudgetSchema);
  const standard = standardFinalizers(domain);
  const hadInvalidSelector = (old: PodDisruptionBudget) => {
    const selector = old.spec?.selector;
    return selector ? hasInvalidLabelValue([selector]) : false;
  };
  return {
    group: POLICY_GROUP,
    version: 'v1',
    kind: 'PodDisruptionBudget',
    listKind: 'PodDisruptionBudgetList',
    resource: 'poddisruptionbudgets',
    singular: 'poddisruptionbudget',
    namespaced: true,
    shortNames: ['pdb'],
    categories: [],
    verbs: STANDARD_VERBS,
    subresources: [
      {
        name: 'status',
        verbs: ['get', 'patch', 'update'],
        resetFields: ['spec'],
        strategy: subresourceStrategy<PodDisruptionBudget>({
          schema,
          prepareForUpdate(pdb, old) {
            pdb.spec = cloneJson(old.spec ?? {});
            pdb.status ??= {};
            fillStatusCounters(pdb.status);
          },
          validateUpdate: (pdb, old) => [
            ...validateObjectMetaUpdate(pdb.metadata, old.metadata, { standardFinalizers: standard }),
            ...validatePodDisruptionBudgetStatus(pdb.status),
          ],
        }),
      },
    ],
    allowCreateOnUpdate: false,
    hasGeneration: true,
    schema: podDisruptionBudgetSchema,
    resetFields: ['status'],
    tableColumns: pdbTableColumns(),
    listDescription: 'A list of pod disruption budgets.',
    listItemsDescription: 'The pod disruption budgets.',
    strategy: schemaStrategy<PodDisruptionBudget>({
      schema,
      namespaced: true,
      nameValidator: nameIsDNSSubdomain,
      standardFinalizers: standard,
      prepareForCreate: resetBudgetStatus,
      prepareForUpdate(pdb, old) {
        pdb.status = cloneJson(old.status ?? {});
        fillStatusCounters(pdb.status);
      },
      validateCreate: (pdb) => validatePodDisruptionBudget(pdb),
      validateUpdate: (pdb, old) => validatePodDisruptionBudget(pdb, hadInvalidSelector(old)),
    }),
  };
}

/** The served kinds of policy/v1. */
export function policyResources(domain: ApiDomain = ORCH_DOMAIN): BuiltinResourceDefinition[] {
  return [podDisruptionBudgetResource(domain)];
}

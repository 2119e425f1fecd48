/**
 * core/v1 `replicationcontrollers` as kube-apiserver v1.32 serves them (short name `rc`,
 * category `all`, `status` and `scale`). Orch runs no replication manager: status is what
 * clients write.
 */

import { type ApiDomain, ORCH_DOMAIN } from '../api-domain.js';
import { BASIC_POD_TEMPLATE_RULES, type PodTemplateRules } from '../apps/pod-template-rules.js';
import { validateReplicaSetStatus } from '../apps/replica-set.js';
import {
  keepStatus,
  LIST_METADATA_DESCRIPTION,
  resetStatus,
  statusSubresource,
  validationSchema,
  workloadDefinition,
} from '../apps/workload-definition.js';
import { scaleSchema } from '../autoscaling/autoscaling-v1-schemas.js';
import { scaleSubresource } from '../autoscaling/scale-subresource.js';
import type { BuiltinResourceDefinition } from '../meta/builtin-definition.js';
import { nameIsDNSSubdomain } from '../meta/name-validation.js';
import { standardFinalizers } from '../meta/object-meta-validation.js';
import { schemaStrategy } from '../meta/resource-strategy.js';
import { replicationControllerSchema } from './core-v1-schemas.js';
import {
  defaultReplicationController,
  type ReplicationController,
  replicationControllerFieldLabels,
  replicationControllerSelector,
  replicationControllerTableColumns,
  validateReplicationControllerSpec,
} from './replication-controller-rules.js';

/** core/v1 `replicationcontrollers`. */
export function replicationControllerResource(
  domain: ApiDomain = ORCH_DOMAIN,
  pod: PodTemplateRules = BASIC_POD_TEMPLATE_RULES,
): BuiltinResourceDefinition {
  const schema = validationSchema(replicationControllerSchema);
  const finalizers = standardFinalizers(domain);
  return workloadDefinition(
    {
      group: '',
      version: 'v1',
      kind: 'ReplicationController',
      resource: 'replicationcontrollers',
      shortNames: ['rc'],
      categories: ['all'],
      listDescription: 'A list of replication controllers.',
      listItemsDescription: 'The replication controllers.',
      listMetadataDescription: LIST_METADATA_DESCRIPTION,
    },
    {
      schema: replicationControllerSchema,
      hasGeneration: true,
      tableColumns: replicationControllerTableColumns(),
      fieldLabels: replicationControllerFieldLabels,
      subresources: [
        scaleSubresource(scaleSchema, {
          group: '',
          resource: 'replicationcontrollers',
          selector: replicationControllerSelector,
        }),
        statusSubresource<ReplicationController>({ schema, validate: (rc) => validateReplicaSetStatus(rc.status) }),
      ],
      strategy: schemaStrategy<ReplicationController>({
        schema,
        namespaced: true,
        nameValidator: nameIsDNSSubdomain,
        standardFinalizers: finalizers,
        defaults: (rc) => defaultReplicationController(rc, pod),
        prepareForCreate: (rc) => resetStatus(rc, schema),
        prepareForUpdate: (rc, old) => keepStatus(rc, old),
        validateCreate: (rc) => validateReplicationControllerSpec(rc, pod),
        validateUpdate: (rc, old) => validateReplicationControllerSpec(rc, pod, old),
      }),
    },
  );
}

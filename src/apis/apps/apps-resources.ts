/**
 * The apps/v1 kinds as kube-apiserver v1.32 serves them: Deployments, ReplicaSets and
 * StatefulSets (with `status` and `scale`), DaemonSets (`status`) and ControllerRevisions.
 * Orch runs no controllers for them: status is what clients write.
 */
import { type ApiDomain, ORCH_DOMAIN } from '../api-domain.js';
import { scaleSchema } from '../autoscaling/autoscaling-v1-schemas.js';
import { scaleSubresource } from '../autoscaling/scale-subresource.js';
import type { BuiltinResourceDefinition } from '../meta/builtin-definition.js';
import { nameIsDNSLabel, nameIsDNSSubdomain } from '../meta/name-validation.js';
import { schemaStrategy } from '../meta/resource-strategy.js';
import type { ApiObject } from '../object.js';
import { cloneJson } from '../schema/json-value.js';
import type { Schema } from '../schema/schema.js';
import {
  controllerRevisionTableColumns,
  daemonSetTableColumns,
  deploymentTableColumns,
  replicaSetTableColumns,
  statefulSetTableColumns,
} from './apps-columns.js';
import {
  controllerRevisionSchema,
  daemonSetSchema,
  deploymentSchema,
  replicaSetSchema,
  statefulSetSchema,
} from './apps-v1-schemas.js';
import {
  type ControllerRevision,
  validateControllerRevision,
  validateControllerRevisionUpdate,
} from './controller-revision.js';
import {
  type DaemonSet,
  defaultDaemonSet,
  prepareDaemonSetCreate,
  prepareDaemonSetUpdate,
  TEMPLATE_GENERATION_ANNOTATION,
  validateDaemonSetSpec,
  validateDaemonSetStatusUpdate,
  validateDaemonSetUpdate,
} from './daemon-set.js';
import {
  type Deployment,
  defaultDeployment,
  deploymentGenerationChanged,
  validateDeploymentSpec,
  validateDeploymentStatusUpdate,
  validateDeploymentUpdate,
} from './deployment.js';
import { BASIC_POD_TEMPLATE_RULES, type PodTemplateRules } from './pod-template-rules.js';
import {
  defaultReplicaSet,
  type ReplicaSet,
  validateReplicaSetSpec,
  validateReplicaSetStatus,
  validateReplicaSetUpdate,
} from './replica-set.js';
import {
  defaultStatefulSet,
  dropDisabledStatefulSetFields,
  type StatefulSet,
  validateStatefulSetSpec,
  validateStatefulSetStatusUpdate,
  validateStatefulSetUpdate,
} from './stateful-set.js';
import { selectorString } from './workload-columns.js';
import {
  keepStatus,
  LIST_METADATA_DESCRIPTION,
  resetStatus,
  statusSubresource,
  validationSchema,
  workloadDefinition,
  zeroPodTemplate,
} from './workload-definition.js';

/** What the apps/v1 definitions are built with. */
export interface AppsOptions {
  /** The pod template rules (default: the basic ones). */
  readonly podTemplate?: PodTemplateRules;
}

const APPS = { group: 'apps', version: 'v1' };
const ALL = ['all'];

function scale(resource: string) {
  return scaleSubresource(scaleSchema, {
    group: 'apps',
    resource,
    selector: (obj: ApiObject) => selectorString((obj.spec as { selector?: unknown } | undefined)?.selector),
  });
}

/** `deployments` (short name `deploy`). */
export function deploymentResource(pod: PodTemplateRules = BASIC_POD_TEMPLATE_RULES): BuiltinResourceDefinition {
  const schema: Schema = validationSchema(deploymentSchema);
  return workloadDefinition(
    {
      ...APPS,
      kind: 'Deployment',
      resource: 'deployments',
      zeroSpec: () => ({ selector: null, template: zeroPodTemplate(), strategy: {} }),
      shortNames: ['deploy'],
      categories: ALL,
      listDescription: 'A list of deployments.',
      listItemsDescription: 'The deployments.',
      listMetadataDescription: LIST_METADATA_DESCRIPTION,
    },
    {
      schema: deploymentSchema,
      hasGeneration: true,
      tableColumns: deploymentTableColumns(),
      subresources: [
        scale('deployments'),
        statusSubresource<Deployment>(
          {
            schema,
            keep(d, old) {
              if (old.metadata.labels === undefined) delete d.metadata.labels;
              else d.metadata.labels = cloneJson(old.metadata.labels);
            },
            validate: validateDeploymentStatusUpdate,
          },
          ['spec', 'metadata.labels'],
        ),
      ],
      strategy: schemaStrategy<Deployment>({
        schema,
        namespaced: true,
        nameValidator: nameIsDNSSubdomain,
        defaults: (d) => defaultDeployment(d, pod),
        prepareForCreate: (d) => resetStatus(d, schema),
        prepareForUpdate: (d, old) => keepStatus(d, old),
        validateCreate: (d) => validateDeploymentSpec(d, pod),
        validateUpdate: (d, old) => validateDeploymentUpdate(d, old, pod),
        generationChanged: deploymentGenerationChanged,
      }),
    },
  );
}

/** `replicasets` (short name `rs`). */
export function replicaSetResource(pod: PodTemplateRules = BASIC_POD_TEMPLATE_RULES): BuiltinResourceDefinition {
  const schema = validationSchema(replicaSetSchema);
  return workloadDefinition(
    {
      ...APPS,
      kind: 'ReplicaSet',
      resource: 'replicasets',
      zeroSpec: () => ({ selector: null, template: zeroPodTemplate() }),
      shortNames: ['rs'],
      categories: ALL,
      listDescription: 'A list of replica sets.',
      listItemsDescription: 'The replica sets.',
      listMetadataDescription: LIST_METADATA_DESCRIPTION,
    },
    {
      schema: replicaSetSchema,
      hasGeneration: true,
      tableColumns: replicaSetTableColumns(),
      subresources: [
        scale('replicasets'),
        statusSubresource<ReplicaSet>({ schema, validate: (rs) => validateReplicaSetStatus(rs.status) }),
      ],
      strategy: schemaStrategy<ReplicaSet>({
        schema,
        namespaced: true,
        nameValidator: nameIsDNSSubdomain,
        defaults: (rs) => defaultReplicaSet(rs, pod),
        prepareForCreate: (rs) => resetStatus(rs, schema),
        prepareForUpdate: (rs, old) => keepStatus(rs, old),
        validateCreate: (rs) => validateReplicaSetSpec(rs, pod),
        validateUpdate: (rs, old) => validateReplicaSetUpdate(rs, old, pod),
      }),
    },
  );
}

/** `statefulsets` (short name `sts`). */
export function statefulSetResource(pod: PodTemplateRules = BASIC_POD_TEMPLATE_RULES): BuiltinResourceDefinition {
  const schema = validationSchema(statefulSetSchema);
  return workloadDefinition(
    {
      ...APPS,
      kind: 'StatefulSet',
      resource: 'statefulsets',
      zeroSpec: () => ({ selector: null, template: zeroPodTemplate(), updateStrategy: {} }),
      shortNames: ['sts'],
      categories: ALL,
      listDescription: 'A list of stateful sets.',
      listItemsDescription: 'The stateful sets.',
      listMetadataDescription: LIST_METADATA_DESCRIPTION,
    },
    {
      schema: statefulSetSchema,
      hasGeneration: true,
      tableColumns: statefulSetTableColumns(),
      subresources: [
        scale('statefulsets'),
        statusSubresource<StatefulSet>({ schema, validate: validateStatefulSetStatusUpdate }),
      ],
      strategy: schemaStrategy<StatefulSet>({
        schema,
        namespaced: true,
        nameValidator: nameIsDNSLabel,
        defaults: (ss) => defaultStatefulSet(ss, pod),
        prepareForCreate(ss) {
          dropDisabledStatefulSetFields(ss);
          resetStatus(ss, schema);
        },
        prepareForUpdate(ss, old) {
          dropDisabledStatefulSetFields(ss, old);
          keepStatus(ss, old);
        },
        validateCreate: validateStatefulSetSpec,
        validateUpdate: (ss, old) => [...validateStatefulSetSpec(ss), ...validateStatefulSetUpdate(ss, old)],
      }),
    },
  );
}

function keepTemplateGeneration(ds: DaemonSet, old: DaemonSet): void {
  const value = old.metadata.annotations?.[TEMPLATE_GENERATION_ANNOTATION];
  if (value === undefined) return;
  ds.metadata.annotations = { ...(ds.metadata.annotations ?? {}), [TEMPLATE_GENERATION_ANNOTATION]: value };
}

/** `daemonsets` (short name `ds`). */
export function daemonSetResource(pod: PodTemplateRules = BASIC_POD_TEMPLATE_RULES): BuiltinResourceDefinition {
  const schema = validationSchema(daemonSetSchema);
  return workloadDefinition(
    {
      ...APPS,
      kind: 'DaemonSet',
      resource: 'daemonsets',
      zeroSpec: () => ({ selector: null, template: zeroPodTemplate(), updateStrategy: {} }),
      shortNames: ['ds'],
      categories: ALL,
      listDescription: 'A list of daemon sets.',
      listItemsDescription: 'The daemon sets.',
      listMetadataDescription: LIST_METADATA_DESCRIPTION,
    },
    {
      schema: daemonSetSchema,
      hasGeneration: true,
      tableColumns: daemonSetTableColumns(),
      subresources: [
        statusSubresource<DaemonSet>({ schema, keep: keepTemplateGeneration, validate: validateDaemonSetStatusUpdate }),
      ],
      strategy: schemaStrategy<DaemonSet>({
        schema,
        namespaced: true,
        nameValidator: nameIsDNSSubdomain,
        defaults: (ds) => defaultDaemonSet(ds, pod),
        prepareForCreate(ds) {
          prepareDaemonSetCreate(ds);
          resetStatus(ds, schema);
        },
        prepareForUpdate(ds, old) {
          prepareDaemonSetUpdate(ds, old);
          keepStatus(ds, old);
        },
        validateCreate: (ds) => validateDaemonSetSpec(ds, pod),
        validateUpdate: (ds, old) => validateDaemonSetUpdate(ds, old, pod),
      }),
    },
  );
}

/** `controllerrevisions`. */
export function controllerRevisionResource(): BuiltinResourceDefinition {
  const schema = validationSchema(controllerRevisionSchema);
  return {
    ...workloadDefinition(
      {
        ...APPS,
        kind: 'ControllerRevision',
        resource: 'controllerrevisions',
        shortNames: [],
        categories: [],
        listDescription: 'A list of controller revisions.',
        listItemsDescription: 'The controller revisions.',
        listMetadataDescription: LIST_METADATA_DESCRIPTION,
      },
      {
        schema: controllerRevisionSchema,
        hasGeneration: false,
        tableColumns: controllerRevisionTableColumns(),
        subresources: [],
        strategy: schemaStrategy<ControllerRevision>({
          schema,
          namespaced: true,
          nameValidator: nameIsDNSSubdomain,
          validateCreate: validateControllerRevision,
          validateUpdate: validateControllerRevisionUpdate,
        }),
      },
    ),
    resetFields: undefined,
    zeroObject: () => ({ apiVersion: 'apps/v1', kind: 'ControllerRevision', metadata: {} }),
  };
}

/** The apps/v1 kinds, in kube's discovery order. */
export function appsResources(
  _domain: ApiDomain = ORCH_DOMAIN,
  options: AppsOptions = {},
): BuiltinResourceDefinition[] {
  const pod = options.podTemplate ?? BASIC_POD_TEMPLATE_RULES;
  return [
    controllerRevisionResource(),
    daemonSetResource(pod),
    deploymentResource(pod),
    replicaSetResource(pod),
    statefulSetResource(pod),
  ];
}

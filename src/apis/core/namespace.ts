import { type ApiDomain, ORCH_DOMAIN } from '../api-domain.js';
import type { BuiltinResourceDefinition } from '../meta/builtin-definition.js';
import { type FieldError, fieldErrors } from '../meta/field-error.js';
import { nameIsDNSLabel } from '../meta/name-validation.js';
import { API_CONVENTIONS, objectMetaField } from '../meta/object-meta-schema.js';
import {
  standardFinalizers,
  validateFinalizerName,
  validateObjectMetaUpdate,
  validateStandardFinalizerName,
} from '../meta/object-meta-validation.js';
import { schemaStrategy, subresourceStrategy } from '../meta/resource-strategy.js';
import { timeSchema } from '../meta/time-schema.js';
import { apiVersionField, kindField } from '../meta/type-meta-fields.js';
import type { ApiObject } from '../object.js';
import type { ResourceStrategy } from '../resource-definition.js';
import { childPath, indexPath } from '../schema/field-path.js';
import { cloneJson, isPlainObject } from '../schema/json-value.js';
import { fieldOf, namedType, pb, stringField } from '../schema/named.js';
import type { Schema } from '../schema/schema.js';
import { namespaceFieldLabels } from '../selectors/builtin-field-labels.js';
import { namespaceTableColumns } from '../table/builtin-columns.js';
import { CORE_V1 } from './object-reference-schema.js';

const NAMESPACES_DOC = 'https://kubernetes.io/docs/tasks/administer-cluster/namespaces/';

export interface Namespace extends ApiObject {
  spec?: { finalizers?: string[] };
  status?: { phase?: string; conditions?: Record<string, unknown>[] };
}

const namespaceConditionSchema: Schema = namedType(
  `${CORE_V1}.NamespaceCondition`,
  'NamespaceCondition contains details about state of namespace.',
  {
    type: 'object',
    properties: {
      type: stringField('Type of namespace controller condition.', pb(1)),
      status: stringField('Status of the condition, one of True, False, Unknown.', pb(2)),
      lastTransitionTime: fieldOf(
        timeSchema,
        'Last time the condition transitioned from one status to another.',
        pb(4),
      ),
      reason: stringField("Unique, one-word, CamelCase reason for the condition's last transition.", pb(5)),
      message: stringField('Human-readable message indicating details about last transition.', pb(6)),
    },
  },
);

const namespaceSpecSchema: Schema = namedType(
  `${CORE_V1}.NamespaceSpec`,
  'NamespaceSpec describes the attributes on a Namespace.',
  {
    type: 'object',
    properties: {
      finalizers: {
        type: 'array',
        items: { type: 'string' },
        description: `Finalizers is an opaque list of values that must be empty to permanently remove object from storage. More info: ${NAMESPACES_DOC}`,
        'x-orch-list-type': 'atomic',
        ...pb(1),
      },
    },
  },
);

const namespaceStatusSchema: Schema = namedType(
  `${CORE_V1}.NamespaceStatus`,
  'NamespaceStatus is information about the current status of a Namespace.',
  {
    type: 'object',
    properties: {
      phase: stringField(`Phase is the current lifecycle phase of the namespace. More info: ${NAMESPACES_DOC}`, pb(1)),
      conditions: {
        type: 'array',
        items: namespaceConditionSchema,
        description: "Represents the latest available observations of a namespace's current state.",
        'x-orch-list-type': 'map',
        'x-orch-list-map-keys': ['type'],
        'x-orch-patch-strategy': 'merge',
        'x-orch-patch-merge-key': 'type',
        ...pb(2),
      },
    },
  },
);

export const namespaceSchema: Schema = namedType(
  `${CORE_V1}.Namespace`,
  'Namespace provides a scope for Names. Use of multiple namespaces is optional.',
  {
    type: 'object',
    properties: {
      apiVersion: apiVersionField,
      kind: kindField,
      metadata: objectMetaField(),
      spec: fieldOf(
        namespaceSpecSchema,
        `Spec defines the behavior of the Namespace. More info: ${API_CONVENTIONS}#spec-and-status`,
        pb(2),
      ),
      status: fieldOf(
        namespaceStatusSchema,
        `Status describes the current status of a Namespace. More info: ${API_CONVENTIONS}#spec-and-status`,
        pb(3),
      ),
    },
  },
);

/** Defaulting kube applies on every write: the namespace's name as a label (`domain.namespaceNameLabel`). */
function labelWithName(ns: Namespace, label: string): void {
  const meta = ns.metadata;
  if (!isPlainObject(meta) || typeof meta.name !== 'string' || !meta.name) return;
  if (meta.labels !== undefined && !isPlainObject(meta.labels)) return;
  meta.labels = { ...(meta.labels ?? {}), [label]: meta.name };
}

/**
 * On create: phase Active, and the namespace finalizer (`orch` | `kubernetes`) appended unless
 * already present. Ill-typed input is left as is for validation to report.
 */
function prepareNamespaceForCreate(ns: Namespace, domain: ApiDomain): void {
  ns.status = { phase: 'Active' };
  labelWithName(ns, domain.namespaceNameLabel);
  if (ns.spec !== undefined && !isPlainObject(ns.spec)) return;
  const finalizers = ns.spec?.finalizers ?? [];
  if (!Array.isArray(finalizers) || finalizers.includes(domain.namespaceFinalizer)) return;
  ns.spec = { ...(ns.spec ?? {}), finalizers: [...finalizers, domain.namespaceFinalizer] };
}

/** Finalizer names in `spec.finalizers`: qualified names, standard unless domain-prefixed. */
function validateSpecFinalizers(ns: Namespace, indexed: boolean, standard: readonly string[]): FieldError[] {
  const path = 'spec.finalizers';
  return (ns.spec?.finalizers ?? []).flatMap((f, i) => {
    const p = indexed ? indexPath(path, i) : path;
    return [...validateFinalizerName(f, p), ...validateStandardFinalizerName(f, p, standard)];
  });
}

function statusStrategy(domain: ApiDomain): ResourceStrategy {
  const standard = standardFinalizers(domain);
  return subresourceStrategy<Namespace>({
    schema: namespaceSchema,
    prepareForUpdate(ns, old) {
      ns.spec = cloneJson(old.spec);
      labelWithName(ns, domain.namespaceNameLabel);
    },
    validateUpdate(ns, old) {
      const errs = validateObjectMetaUpdate(ns.metadata, old.metadata, { standardFinalizers: standard });
      const phase = ns.status?.phase ?? '';
      // kube reports this under `status.Phase` (capitalized).
      const path = childPath('status', 'Phase');
      if (!ns.metadata.deletionTimestamp) {
        if (phase !== 'Active')
          errs.push(fieldErrors.invalid(path, phase, "may only be 'Active' if `deletionTimestamp` is empty"));
      } else if (phase !== 'Terminating') {
        errs.push(fieldErrors.invalid(path, phase, "may only be 'Terminating' if `deletionTimestamp` is not empty"));
      }
      return errs;
    },
  });
}

function finalizeStrategy(domain: ApiDomain): ResourceStrategy {
  const standard = standardFinalizers(domain);
  return subresourceStrategy<Namespace>({
    schema: namespaceSchema,
    prepareForUpdate(ns, old) {
      ns.status = cloneJson(old.status);
      labelWithName(ns, domain.namespaceNameLabel);
    },
    validateUpdate(ns, old) {
      return [
        ...validateObjectMetaUpdate(ns.metadata, old.metadata, { standardFinalizers: standard }),
        ...validateSpecFinalizers(ns, true, standard),
      ];
    },
  });
}

/**
 * core/v1 `namespaces` (cluster-scoped). The main resource keeps `spec.finalizers` and `status`
 * from the live object on update; `namespaces/status` changes only status, `namespaces/finalize`
 * only `spec.finalizers`.
 */
export function namespaceResource(domain: ApiDomain = ORCH_DOMAIN): BuiltinResourceDefinition {
  const standard = standardFinalizers(domain);
  return {
    group: '',
    version: 'v1',
    kind: 'Namespace',
    listKind: 'NamespaceList',
    resource: 'namespaces',
    singular: 'namespace',
    namespaced: false,
    shortNames: ['ns'],
    categories: [],
    // Namespaces cannot be deleted as a collection.
    verbs: ['create', 'delete', 'get', 'list', 'patch', 'update', 'watch'],
    subresources: [
      { name: 'finalize', verbs: ['update'], strategy: finalizeStrategy(domain), resetFields: ['status'] },
      { name: 'status', verbs: ['get', 'patch', 'update'], strategy: statusStrategy(domain), resetFields: ['spec'] },
    ],
    allowCreateOnUpdate: false,
    hasGeneration: false,
    schema: namespaceSchema,
    resetFields: ['status'],
    namespaceIsName: true,
    // kube's Namespace has non-pointer spec and status: its zero object carries both.
    zeroObject: () => ({ apiVersion: 'v1', kind: 'Namespace', metadata: {}, spec: {}, status: {} }),
    fieldLabels: namespaceFieldLabels,
    tableColumns: namespaceTableColumns(),
    listDescription: 'NamespaceList is a list of Namespaces.',
    listItemsDescription:
      'Items is the list of Namespace objects in the list. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/namespaces/',
    strategy: withControllerFinalization(
      schemaStrategy<Namespace>({
        schema: namespaceSchema,
        namespaced: false,
        nameValidator: nameIsDNSLabel,
        standardFinalizers: standard,
        prepareForCreate: (ns) => prepareNamespaceForCreate(ns, domain),
        prepareForUpdate(ns, old) {
          // spec holds only finalizers, which change through namespaces/finalize alone.
          ns.spec = cloneJson(old.spec);
          ns.status = cloneJson(old.status);
          labelWithName(ns, domain.namespaceNameLabel);
        },
        validateCreate: (ns) => validateSpecFinalizers(ns, false, standard),
        validateUpdate: (ns) => validateSpecFinalizers(ns, false, standard),
      }),
    ),
  };
}

/**
 * Namespace termination: the namespace controller empties a deleted namespace and then removes
 * the domain's finalizer from `spec.finalizers`; until `spec.finalizers` is empty the namespace stays, with
 * `status.phase: Terminating`.
 */
function withControllerFinalization(strategy: ResourceStrategy): ResourceStrategy {
  return {
    ...strategy,
    controllerFinalization: {
      pending: (obj) => ((obj as Namespace).spec?.finalizers ?? []).length > 0,
      markTerminating(obj) {
        obj.status = { ...((obj as Namespace).status ?? {}), phase: 'Terminating' };
      },
    },
  };
}

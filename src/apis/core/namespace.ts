import { type ApiDomain, ORCH_DOMAIN } from '../api-domain.js';
import type { BuiltinResourceDefinition } from '../meta/builtin-definition.js';
import { type FieldError, fieldErrors } from '../meta/field-error.js';
import { nameIsDNSLabel } from '../meta/name-validation.js';
import { nativeValidationSchema } from '../meta/native-validation-schema.js';
import {
  standardFinalizers,
  validateFinalizerName,
  validateObjectMetaUpdate,
  validateStandardFinalizerName,
} from '../meta/object-meta-validation.js';
import { schemaStrategy, subresourceStrategy } from '../meta/resource-strategy.js';
import type { ApiObject } from '../object.js';
import type { ResourceStrategy } from '../resource-definition.js';
import { childPath, indexPath } from '../schema/field-path.js';
import { cloneJson, isPlainObject } from '../schema/json-value.js';
import { namespaceFieldLabels } from '../selectors/builtin-field-labels.js';
import { namespaceTableColumns } from '../table/builtin-columns.js';
import { namespaceSchema } from './core-v1-schemas.js';

/** The schema writes are checked against: kube validates namespaces in Go, not by its schema. */
const VALIDATION_SCHEMA = nativeValidationSchema(namespaceSchema);

export interface Namespace extends ApiObject {
  spec?: { finalizers?: string[] };
  status?: { phase?: string; conditions?: Record<string, unknown>[] };
}

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
    schema: VALIDATION_SCHEMA,
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
    schema: VALIDATION_SCHEMA,
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
    listDescription: 'A list of namespaces.',
    listItemsDescription: 'The namespaces.',
    strategy: withControllerFinalization(
      schemaStrategy<Namespace>({
        schema: VALIDATION_SCHEMA,
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

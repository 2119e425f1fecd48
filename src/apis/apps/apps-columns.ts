/**
 * kube's printer columns of the apps/v1 kinds (`pkg/printers/internalversion/printers.go`), with
 * descriptions in Orch's own words. The server renders every column, wide ones included.
 */
import type { ApiObject } from '../object.js';
import { isPlainObject } from '../schema/json-value.js';
import { labelSelectorString } from '../selectors/label-selector.js';
import { valueAt } from '../table/column-helpers.js';
import { AGE_SPEC, type ColumnSpec, declarativeTableColumns } from '../table/declarative-columns.js';
import type { TableColumns } from '../table/table-types.js';
import { containerColumnSpecs, formatLabelSelector, formatLabels } from './workload-columns.js';
import { selectorOf } from './workload-validation.js';

const int = (v: unknown): number => (typeof v === 'number' ? v : 0);
const spec = (obj: ApiObject): Record<string, unknown> => (isPlainObject(obj.spec) ? obj.spec : {});
const status = (obj: ApiObject): Record<string, unknown> => (isPlainObject(obj.status) ? obj.status : {});
const template = (obj: ApiObject): unknown => spec(obj).template;

/** An integer field read into a column; 0 when unset (the Go zero value kube's printers show). */
function count(name: string, type: string, description: string, jsonPath: string): ColumnSpec {
  return { name, type, description, jsonPath, readAs: 'integer', zero: 0 };
}

/** `ready/desired` replicas. */
const readyOfDesired = (obj: ApiObject): string => `${int(status(obj).readyReplicas)}/${int(spec(obj).replicas)}`;

/** Deployment: `Name`, `Ready` (ready/desired), `Up-to-date`, `Available`, `Age`; wide `Containers`, `Images`, `Selector`. */
export function deploymentTableColumns(): TableColumns {
  return declarativeTableColumns([
    { name: 'Ready', type: 'string', description: 'Ready pods out of the desired replicas.', cell: readyOfDesired },
    count(
      'Up-to-date',
      'string',
      'Pods of the deployment that already run its current template.',
      '.status.updatedReplicas',
    ),
    count(
      'Available',
      'string',
      'Pods of the deployment that have been ready for at least minReadySeconds.',
      '.status.availableReplicas',
    ),
    AGE_SPEC,
    ...containerColumnSpecs(template),
    {
      name: 'Selector',
      type: 'string',
      description: 'The label selector that picks the pods the deployment manages.',
      priority: 1,
      cell: (obj) => {
        const sel = selectorOf(spec(obj).selector);
        return sel ? labelSelectorString(sel) : '<invalid>';
      },
    },
  ]);
}

/** ReplicaSet: `Name`, `Desired`, `Current`, `Ready`, `Age`; wide `Containers`, `Images`, `Selector`. */
export function replicaSetTableColumns(): TableColumns {
  return declarativeTableColumns([
    count('Desired', 'integer', 'The number of replicas asked for.', '.spec.replicas'),
    count('Current', 'integer', 'The number of replicas last seen running.', '.status.replicas'),
    count('Ready', 'integer', 'The number of replicas that are ready.', '.status.readyReplicas'),
    AGE_SPEC,
    ...containerColumnSpecs(template),
    {
      name: 'Selector',
      type: 'string',
      description: 'The label selector that picks the pods the replica set manages.',
      priority: 1,
      cell: (obj) => formatLabelSelector(spec(obj).selector),
    },
  ]);
}

/** StatefulSet: `Name`, `Ready` (ready/desired), `Age`; wide `Containers`, `Images`. */
export function statefulSetTableColumns(): TableColumns {
  return declarativeTableColumns([
    { name: 'Ready', type: 'string', description: 'Ready pods out of the desired replicas.', cell: readyOfDesired },
    AGE_SPEC,
    ...containerColumnSpecs(template),
  ]);
}

/**
 * DaemonSet: `Name`, `Desired`, `Current`, `Ready`, `Up-to-date`, `Available`, `Node Selector`,
 * `Age`; wide `Containers`, `Images`, `Selector`.
 */
export function daemonSetTableColumns(): TableColumns {
  return declarativeTableColumns([
    count('Desired', 'integer', 'Nodes that should run a daemon pod.', '.status.desiredNumberScheduled'),
    count(
      'Current',
      'integer',
      'Nodes that should run a daemon pod and already run one.',
      '.status.currentNumberScheduled',
    ),
    count('Ready', 'integer', 'Nodes whose daemon pod is running and ready.', '.status.numberReady'),
    count(
      'Up-to-date',
      'integer',
      'Nodes whose daemon pod runs the current template.',
      '.status.updatedNumberScheduled',
    ),
    count(
      'Available',
      'integer',
      'Nodes whose daemon pod has been ready for at least minReadySeconds.',
      '.status.numberAvailable',
    ),
    {
      name: 'Node Selector',
      type: 'string',
      description: 'The node labels a node needs to run the daemon pod.',
      cell: (obj) => formatLabels(valueAt(template(obj), 'spec', 'nodeSelector')),
    },
    AGE_SPEC,
    ...containerColumnSpecs(template),
    {
      name: 'Selector',
      type: 'string',
      description: 'The label selector that picks the pods the daemon set manages.',
      priority: 1,
      cell: (obj) => formatLabelSelector(spec(obj).selector),
    },
  ]);
}

/** kube's `formatResourceName` of a controller reference: `<kind>.<group>/<name>` in lower case. */
function controllerName(obj: ApiObject): string {
  const ref = (obj.metadata.ownerReferences ?? []).find((r) => r.controller === true);
  if (!ref) return '<none>';
  const slash = ref.apiVersion.indexOf('/');
  const group = slash >= 0 ? ref.apiVersion.slice(0, slash) : '';
  if (!ref.kind) return ref.name;
  return `${(group ? `${ref.kind}.${group}` : ref.kind).toLowerCase()}/${ref.name}`;
}

/** ControllerRevision: `Name`, `Controller`, `Revision`, `Age`. */
export function controllerRevisionTableColumns(): TableColumns {
  return declarativeTableColumns([
    {
      name: 'Controller',
      type: 'string',
      description: 'The object that controls this revision.',
      cell: controllerName,
    },
    count('Revision', 'string', 'The revision number of the stored state.', '.revision'),
    AGE_SPEC,
  ]);
}

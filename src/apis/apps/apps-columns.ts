/**
 * kube's printer columns of the apps/v1 kinds (`pkg/printers/internalversion/printers.go`), with
 * kube's descriptions. The server renders every column, wide ones included.
 */
import type { ApiObject } from '../object.js';
import { isPlainObject } from '../schema/json-value.js';
import { labelSelectorString } from '../selectors/label-selector.js';
import { AGE_COLUMN, column, NAME_COLUMN, objectName, valueAt } from '../table/column-helpers.js';
import { translateTimestampSince } from '../table/human-duration.js';
import type { TableCell, TableColumns } from '../table/table-types.js';
import {
  CONTAINERS_COLUMN,
  containerCells,
  formatLabelSelector,
  formatLabels,
  IMAGES_COLUMN,
} from './workload-columns.js';
import { selectorOf } from './workload-validation.js';

const age = (obj: ApiObject, now: Date): string =>
  translateTimestampSince(valueAt(obj, 'metadata', 'creationTimestamp'), now);
const int = (v: unknown): number => (typeof v === 'number' ? v : 0);
const spec = (obj: ApiObject): Record<string, unknown> => (isPlainObject(obj.spec) ? obj.spec : {});
const status = (obj: ApiObject): Record<string, unknown> => (isPlainObject(obj.status) ? obj.status : {});

function columns(
  definitions: TableColumns['columnDefinitions'],
  cells: (obj: ApiObject, now: Date) => TableCell[],
): TableColumns {
  return Object.freeze({ columnDefinitions: Object.freeze([...definitions]), cells });
}

/** Deployment: `Name`, `Ready` (ready/desired), `Up-to-date`, `Available`, `Age`; wide `Containers`, `Images`, `Selector`. */
export function deploymentTableColumns(): TableColumns {
  return columns(
    [
      NAME_COLUMN,
      column('Ready', 'string', 'Number of the pod with ready state'),
      column(
        'Up-to-date',
        'string',
        'Total number of non-terminated pods targeted by this deployment that have the desired template spec.',
      ),
      column(
        'Available',
        'string',
        'Total number of available pods (ready for at least minReadySeconds) targeted by this deployment.',
      ),
      AGE_COLUMN,
      CONTAINERS_COLUMN,
      IMAGES_COLUMN,
      column(
        'Selector',
        'string',
        'Label selector for pods. Existing ReplicaSets whose pods are selected by this will be the ones affected by this deployment.',
        { priority: 1 },
      ),
    ],
    (obj, now) => {
      const sel = selectorOf(spec(obj).selector);
      return [
        objectName(obj),
        `${int(status(obj).readyReplicas)}/${int(spec(obj).replicas)}`,
        int(status(obj).updatedReplicas),
        int(status(obj).availableReplicas),
        age(obj, now),
        ...containerCells(spec(obj).template),
        sel ? labelSelectorString(sel) : '<invalid>',
      ];
    },
  );
}

/** ReplicaSet: `Name`, `Desired`, `Current`, `Ready`, `Age`; wide `Containers`, `Images`, `Selector`. */
export function replicaSetTableColumns(): TableColumns {
  return columns(
    [
      NAME_COLUMN,
      column(
        'Desired',
        'integer',
        'Replicas is the number of desired replicas. This is a pointer to distinguish between explicit zero and unspecified. Defaults to 1. More info: https://kubernetes.io/docs/concepts/workloads/controllers/replicationcontroller/#what-is-a-replicationcontroller',
      ),
      column(
        'Current',
        'integer',
        'Replicas is the most recently observed number of replicas. More info: https://kubernetes.io/docs/concepts/workloads/controllers/replicationcontroller/#what-is-a-replicationcontroller',
      ),
      column('Ready', 'integer', 'The number of ready replicas for this replica set.'),
      AGE_COLUMN,
      CONTAINERS_COLUMN,
      IMAGES_COLUMN,
      column(
        'Selector',
        'string',
        'Selector is a label query over pods that should match the replica count. If the selector is empty, it is defaulted to the labels present on the pod template. Label keys and values that must match in order to be controlled by this replica set. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/labels/#label-selectors',
        { priority: 1 },
      ),
    ],
    (obj, now) => [
      objectName(obj),
      int(spec(obj).replicas),
      int(status(obj).replicas),
      int(status(obj).readyReplicas),
      age(obj, now),
      ...containerCells(spec(obj).template),
      formatLabelSelector(spec(obj).selector),
    ],
  );
}

/** StatefulSet: `Name`, `Ready` (ready/desired), `Age`; wide `Containers`, `Images`. */
export function statefulSetTableColumns(): TableColumns {
  return columns(
    [
      NAME_COLUMN,
      column('Ready', 'string', 'Number of the pod with ready state'),
      AGE_COLUMN,
      CONTAINERS_COLUMN,
      IMAGES_COLUMN,
    ],
    (obj, now) => [
      objectName(obj),
      `${int(status(obj).readyReplicas)}/${int(spec(obj).replicas)}`,
      age(obj, now),
      ...containerCells(spec(obj).template),
    ],
  );
}

/**
 * DaemonSet: `Name`, `Desired`, `Current`, `Ready`, `Up-to-date`, `Available`, `Node Selector`,
 * `Age`; wide `Containers`, `Images`, `Selector`.
 */
export function daemonSetTableColumns(): TableColumns {
  return columns(
    [
      NAME_COLUMN,
      column(
        'Desired',
        'integer',
        'The total number of nodes that should be running the daemon pod (including nodes correctly running the daemon pod). More info: https://kubernetes.io/docs/concepts/workloads/controllers/daemonset/',
      ),
      column(
        'Current',
        'integer',
        'The number of nodes that are running at least 1 daemon pod and are supposed to run the daemon pod. More info: https://kubernetes.io/docs/concepts/workloads/controllers/daemonset/',
      ),
      column(
        'Ready',
        'integer',
        'The number of nodes that should be running the daemon pod and have one or more of the daemon pod running and ready.',
      ),
      column('Up-to-date', 'integer', 'The total number of nodes that are running updated daemon pod'),
      column(
        'Available',
        'integer',
        'The number of nodes that should be running the daemon pod and have one or more of the daemon pod running and available (ready for at least spec.minReadySeconds)',
      ),
      column(
        'Node Selector',
        'string',
        "NodeSelector is a selector which must be true for the pod to fit on a node. Selector which must match a node's labels for the pod to be scheduled on that node. More info: https://kubernetes.io/docs/concepts/configuration/assign-pod-node/",
      ),
      AGE_COLUMN,
      CONTAINERS_COLUMN,
      IMAGES_COLUMN,
      column(
        'Selector',
        'string',
        'A label query over pods that are managed by the daemon set. Must match in order to be controlled. If empty, defaulted to labels on Pod template. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/labels/#label-selectors',
        { priority: 1 },
      ),
    ],
    (obj, now) => {
      const s = status(obj);
      return [
        objectName(obj),
        int(s.desiredNumberScheduled),
        int(s.currentNumberScheduled),
        int(s.numberReady),
        int(s.updatedNumberScheduled),
        int(s.numberAvailable),
        formatLabels(valueAt(spec(obj).template, 'spec', 'nodeSelector')),
        age(obj, now),
        ...containerCells(spec(obj).template),
        formatLabelSelector(spec(obj).selector),
      ];
    },
  );
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
  return columns(
    [
      NAME_COLUMN,
      column('Controller', 'string', 'Controller of the object'),
      column('Revision', 'string', 'revision indicates the revision of the state represented by Data.'),
      AGE_COLUMN,
    ],
    (obj, now) => [objectName(obj), controllerName(obj), int(obj.revision), age(obj, now)],
  );
}

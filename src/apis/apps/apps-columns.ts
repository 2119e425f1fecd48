/**
 * kube's printer columns of the apps/v1 kinds (`pkg/printers/internalversion/printers.go`), with
 * descriptions in Orch's own words. The server renders every column, wide ones included.
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
      column('Ready', 'string', 'Ready pods out of the desired replicas.'),
      column('Up-to-date', 'string', 'Pods of the deployment that already run its current template.'),
      column('Available', 'string', 'Pods of the deployment that have been ready for at least minReadySeconds.'),
      AGE_COLUMN,
      CONTAINERS_COLUMN,
      IMAGES_COLUMN,
      column('Selector', 'string', 'The label selector that picks the pods the deployment manages.', { priority: 1 }),
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
      column('Desired', 'integer', 'The number of replicas asked for.'),
      column('Current', 'integer', 'The number of replicas last seen running.'),
      column('Ready', 'integer', 'The number of replicas that are ready.'),
      AGE_COLUMN,
      CONTAINERS_COLUMN,
      IMAGES_COLUMN,
      column('Selector', 'string', 'The label selector that picks the pods the replica set manages.', { priority: 1 }),
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
      column('Ready', 'string', 'Ready pods out of the desired replicas.'),
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
      column('Desired', 'integer', 'Nodes that should run a daemon pod.'),
      column('Current', 'integer', 'Nodes that should run a daemon pod and already run one.'),
      column('Ready', 'integer', 'Nodes whose daemon pod is running and ready.'),
      column('Up-to-date', 'integer', 'Nodes whose daemon pod runs the current template.'),
      column('Available', 'integer', 'Nodes whose daemon pod has been ready for at least minReadySeconds.'),
      column('Node Selector', 'string', 'The node labels a node needs to run the daemon pod.'),
      AGE_COLUMN,
      CONTAINERS_COLUMN,
      IMAGES_COLUMN,
      column('Selector', 'string', 'The label selector that picks the pods the daemon set manages.', { priority: 1 }),
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
      column('Controller', 'string', 'The object that controls this revision.'),
      column('Revision', 'string', 'The revision number of the stored state.'),
      AGE_COLUMN,
    ],
    (obj, now) => [objectName(obj), controllerName(obj), int(obj.revision), age(obj, now)],
  );
}

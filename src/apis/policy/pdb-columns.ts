import type { ApiObject } from '../object.js';
import { AGE_COLUMN, column, NAME_COLUMN, objectName, valueAt } from '../table/column-helpers.js';
import { translateTimestampSince } from '../table/human-duration.js';
import type { TableColumns } from '../table/table-types.js';

function intOrString(v: unknown): string {
  return typeof v === 'number' || typeof v === 'string' ? String(v) : 'N/A';
}

/**
 * kube's PodDisruptionBudget printer: `Name`, `Min Available`, `Max Unavailable` (`N/A` when
 * unset), `Allowed Disruptions`, `Age`.
 */
export function pdbTableColumns(): TableColumns {
  return Object.freeze({
    columnDefinitions: Object.freeze([
      NAME_COLUMN,
      column('Min Available', 'string', 'The minimum number of pods that must be available.'),
      column('Max Unavailable', 'string', 'The maximum number of pods that may be unavailable.'),
      column('Allowed Disruptions', 'integer', 'Calculated number of pods that may be disrupted at this time.'),
      AGE_COLUMN,
    ]),
    cells: (obj: ApiObject, now: Date) => {
      const allowed = valueAt(obj, 'status', 'disruptionsAllowed');
      return [
        objectName(obj),
        intOrString(valueAt(obj, 'spec', 'minAvailable')),
        intOrString(valueAt(obj, 'spec', 'maxUnavailable')),
        typeof allowed === 'number' ? allowed : 0,
        translateTimestampSince(valueAt(obj, 'metadata', 'creationTimestamp'), now),
      ];
    },
  });
}

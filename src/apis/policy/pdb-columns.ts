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
      column('Min Available', 'string', 'How many pods must stay available, as a number or percentage.'),
      column('Max Unavailable', 'string', 'How many pods may be unavailable, as a number or percentage.'),
      column('Allowed Disruptions', 'integer', 'How many pods may be disrupted right now.'),
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

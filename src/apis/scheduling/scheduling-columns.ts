import type { ApiObject } from '../object.js';
import type { Schema } from '../schema/schema.js';
import {
  AGE_COLUMN,
  column,
  describeField,
  NAME_COLUMN,
  objectName,
  stringAt,
  valueAt,
} from '../table/column-helpers.js';
import { translateTimestampSince } from '../table/human-duration.js';
import type { TableColumns } from '../table/table-types.js';

/**
 * kube's PriorityClass printer: `Name`, `Value`, `Global-Default`, `Age`, `PreemptionPolicy`
 * (empty when unset). Descriptions come from the kind's schema.
 */
export function priorityClassTableColumns(schema: Schema): TableColumns {
  return Object.freeze({
    columnDefinitions: Object.freeze([
      NAME_COLUMN,
      column('Value', 'integer', describeField(schema, 'value') || 'The priority value of the class.'),
      column(
        'Global-Default',
        'boolean',
        describeField(schema, 'globalDefault') ||
          'Whether this class is the default for pods without a priority class.',
      ),
      AGE_COLUMN,
      column(
        'PreemptionPolicy',
        'string',
        describeField(schema, 'preemptionPolicy') || 'The policy for preempting pods with lower priority.',
      ),
    ]),
    cells: (obj: ApiObject, now: Date) => {
      const value = valueAt(obj, 'value');
      return [
        objectName(obj),
        typeof value === 'number' ? value : 0,
        valueAt(obj, 'globalDefault') === true,
        translateTimestampSince(valueAt(obj, 'metadata', 'creationTimestamp'), now),
        stringAt(obj, 'preemptionPolicy'),
      ];
    },
  });
}

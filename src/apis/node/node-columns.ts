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

/** kube's RuntimeClass printer: `Name`, `Handler`, `Age`. */
export function runtimeClassTableColumns(schema: Schema): TableColumns {
  return Object.freeze({
    columnDefinitions: Object.freeze([
      NAME_COLUMN,
      column(
        'Handler',
        'string',
        describeField(schema, 'handler') || 'The name of the runtime configuration that handles pods of this class.',
      ),
      AGE_COLUMN,
    ]),
    cells: (obj: ApiObject, now: Date) => [
      objectName(obj),
      stringAt(obj, 'handler'),
      translateTimestampSince(valueAt(obj, 'metadata', 'creationTimestamp'), now),
    ],
  });
}

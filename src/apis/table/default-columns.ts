import type { ApiObject } from '../object.js';
import { canonicalTimestamp } from '../schema/time-format.js';
import { CREATED_DESCRIPTION, column, NAME_COLUMN, objectName, stringAt } from './column-helpers.js';
import type { TableColumns } from './table-types.js';

/** How Go prints the zero `metav1.Time` in RFC 3339. */
const GO_ZERO_TIME = '0001-01-01T00:00:00Z';

/**
 * kube's default table convertor, for kinds without columns of their own: `Name` (string, format
 * `name`) and `Created At` (date; the creation timestamp in RFC 3339, UTC).
 */
export const DEFAULT_TABLE_COLUMNS: TableColumns = Object.freeze({
  columnDefinitions: Object.freeze([NAME_COLUMN, column('Created At', 'date', CREATED_DESCRIPTION)]),
  cells: (obj: ApiObject) => [
    objectName(obj),
    canonicalTimestamp(stringAt(obj, 'metadata', 'creationTimestamp'), 'second') ?? GO_ZERO_TIME,
  ],
});

import { JsonPath, JsonPathSyntaxError, textOf } from '../jsonpath/jsonpath.js';
import type { ApiObject } from '../object.js';
import { parseTimestamp } from '../schema/time-format.js';
import { AGE_COLUMN, column, NAME_COLUMN, objectName, valueAt } from './column-helpers.js';
import { humanDuration, timestampMillis, translateTimestampSince } from './human-duration.js';
import type { TableCell, TableColumnDefinition, TableColumns } from './table-types.js';

/**
 * Table columns as data: each column is a definition and either a JSONPath into the object
 * (custom resources' `additionalPrinterColumns`, and built-in columns that only show a field) or
 * a function for cells kube's printers compute. The `Name` column always comes first.
 */
export interface ColumnSpec {
  readonly name: string;
  /** `string`, `integer`, `number`, `boolean` or `date`. */
  readonly type: string;
  readonly format?: string;
  readonly description?: string;
  readonly priority?: number;
  /** A JSONPath (`.spec.replicas`), evaluated as kube's custom resource table convertor does. */
  readonly jsonPath?: string;
  /**
   * The type the path's value is read as when it is not the column's `type`: kube's printers
   * declare some columns `string` and fill them with a typed field (a Deployment's `Up-to-date`
   * count, a StorageClass's `AllowVolumeExpansion`). Default: `type`.
   */
  readonly readAs?: string;
  /**
   * The cell when the path yields nothing: a built-in printer reads a typed field, whose Go zero
   * value (`''`, `0`, `false`) it shows. Default null, as custom resource columns show.
   */
  readonly zero?: TableCell;
  /** A computed cell (when there is no `jsonPath`). */
  readonly cell?: (obj: ApiObject, now: Date) => TableCell;
}

/**
 * A cell of kube's custom resource table convertor: the first value the path selects; `string`
 * columns print it as kube's JSONPath prints values, `integer` columns take whole numbers (a
 * float truncated), `number` and `boolean` their own type, `date` a timestamp shown as its age.
 * Anything else (nothing selected, an error, a value of another type) is null.
 */
export function jsonPathCell(path: JsonPath, type: string, obj: unknown, now: Date): TableCell {
  const value = path.first(obj);
  if (value === undefined || value === null) return null;
  switch (type) {
    case 'string':
      return textOf(value);
    case 'integer':
      if (typeof value === 'bigint') return Number(value);
      return typeof value === 'number' ? Math.trunc(value) : null;
    case 'number':
      return typeof value === 'number' ? value : typeof value === 'bigint' ? Number(value) : null;
    case 'boolean':
      return typeof value === 'boolean' ? value : null;
    case 'date': {
      if (typeof value !== 'string') return null;
      if (!parseTimestamp(value)) return '<invalid>';
      const ms = timestampMillis(value);
      return ms === undefined ? '<unknown>' : humanDuration(now.getTime() - ms);
    }
    default:
      return null;
  }
}

/** kube printers' `Age` column: the object's age as a human duration. */
export const AGE_SPEC: ColumnSpec = Object.freeze({
  name: AGE_COLUMN.name,
  type: AGE_COLUMN.type,
  description: AGE_COLUMN.description,
  cell: (obj: ApiObject, now: Date) => translateTimestampSince(valueAt(obj, 'metadata', 'creationTimestamp'), now),
});

/** The column kube uses for a JSONPath column without a description. */
function describe(spec: ColumnSpec): string {
  if (spec.description) return spec.description;
  return spec.jsonPath ? `Custom resource definition column (in JSONPath format): ${spec.jsonPath}` : '';
}

/** Options of {@link declarativeTableColumns}. */
export interface DeclarativeTableOptions {
  /**
   * The `Name` cell, where a printer shows more than the name (a default StorageClass is
   * `<name> (default)`). Default: `metadata.name`.
   */
  readonly nameCell?: (obj: ApiObject) => TableCell;
  /** The `Name` column's definition. Default: {@link NAME_COLUMN} (format `name`). */
  readonly nameColumn?: TableColumnDefinition;
}

/**
 * The table layout of `specs` after the `Name` column. A JSONPath that does not parse ends the
 * layout before its column, as kube's convertor keeps the columns it built before the failure.
 */
export function declarativeTableColumns(
  specs: readonly ColumnSpec[],
  options: DeclarativeTableOptions = {},
): TableColumns {
  const defs: TableColumnDefinition[] = [options.nameColumn ?? NAME_COLUMN];
  const nameCell = options.nameCell ?? objectName;
  const cells: ((obj: ApiObject, now: Date) => TableCell)[] = [];
  for (const spec of specs) {
    let cell = spec.cell ?? (() => null);
    if (spec.jsonPath !== undefined) {
      let path: JsonPath;
      try {
        path = new JsonPath(`{${spec.jsonPath}}`, true);
      } catch (e) {
        if (e instanceof JsonPathSyntaxError) break;
        throw e;
      }
      const zero = spec.zero ?? null;
      const readAs = spec.readAs ?? spec.type;
      cell = (obj, now) => jsonPathCell(path, readAs, obj, now) ?? zero;
    }
    defs.push(column(spec.name, spec.type, describe(spec), { format: spec.format, priority: spec.priority }));
    cells.push(cell);
  }
  return Object.freeze({
    columnDefinitions: Object.freeze(defs),
    cells: (obj: ApiObject, now: Date) => [nameCell(obj), ...cells.map((cell) => cell(obj, now))],
  });
}

/** A column definition as a spec to give a `cell` or a `jsonPath` (its name, type, format, description, priority). */
export function columnSpecOf(def: TableColumnDefinition): ColumnSpec {
  return { name: def.name, type: def.type, format: def.format, description: def.description, priority: def.priority };
}

import { goQuote } from '../../util/go-strconv.js';
import type { ApiObject } from '../object.js';
import { DEFAULT_TABLE_COLUMNS } from './default-columns.js';
import {
  type ListMetadata,
  META_V1,
  type PartialObjectMetadata,
  type PartialObjectMetadataList,
  type Table,
  type TableColumns,
  type TableRow,
} from './table-types.js';

/** A request for a Table kube answers with 400 BadRequest and this message. */
export class TableOptionsError extends Error {
  override readonly name = 'TableOptionsError';
}

export interface BuildTableOptions {
  /** The instant ages are measured to (inject the server clock). */
  readonly now: Date;
  /**
   * `TableOptions.includeObject`: `Metadata` (the default, also for `''`), `Object` or `None`.
   * Other values fail with `unrecognized includeObject value: "<v>"` — but, as in kube, only
   * when there is at least one row to fill.
   */
  readonly includeObject?: string;
  /** The list's metadata, for a table of a list; a table of one object takes its resourceVersion. */
  readonly listMeta?: ListMetadata;
  /** `TableOptions.noHeaders`: leave `columnDefinitions` null. */
  readonly noHeaders?: boolean;
  /** Group version of the Table and of row `PartialObjectMetadata`; `meta.orch.io/v1` by default. */
  readonly apiVersion?: string;
}

/** Copy of the list metadata members kube serializes (empty strings and absent counts omitted). */
function listMetadata(meta: ListMetadata | undefined): ListMetadata {
  const out: ListMetadata = {};
  if (meta?.resourceVersion) out.resourceVersion = meta.resourceVersion;
  if (meta?.continue) out.continue = meta.continue;
  if (typeof meta?.remainingItemCount === 'number') out.remainingItemCount = meta.remainingItemCount;
  return out;
}

/**
 * `PartialObjectMetadata` of `obj`: `kind`, `apiVersion` (the Table's group version) and the
 * object's whole `metadata` (shared, not copied).
 */
export function toPartialObjectMetadata(obj: ApiObject, apiVersion: string = META_V1): PartialObjectMetadata {
  return { kind: 'PartialObjectMetadata', apiVersion, metadata: obj.metadata };
}

/**
 * `PartialObjectMetadataList` of `objs` (served for `as=PartialObjectMetadataList`): every item a
 * `PartialObjectMetadata`; `items` is null for an empty list, as kube serializes it.
 */
export function toPartialObjectMetadataList(
  objs: readonly ApiObject[],
  listMeta?: ListMetadata,
  apiVersion: string = META_V1,
): PartialObjectMetadataList {
  return {
    kind: 'PartialObjectMetadataList',
    apiVersion,
    metadata: listMetadata(listMeta),
    items: objs.length === 0 ? null : objs.map((o) => toPartialObjectMetadata(o, apiVersion)),
  };
}

function rowObject(obj: ApiObject, includeObject: string, apiVersion: string): TableRow['object'] {
  switch (includeObject) {
    case 'Object':
      return obj;
    case 'Metadata':
    case '':
      return toPartialObjectMetadata(obj, apiVersion);
    case 'None':
      return null;
    default:
      throw new TableOptionsError(`unrecognized includeObject value: ${goQuote(includeObject)}`);
  }
}

/**
 * Renders objects as a `Table`, as kube's table convertors and the handler's `asTable` do: one
 * row per object with the kind's cells (`def.tableColumns`, else the default `Name`/`Created
 * At`), `rows[].object` per `includeObject`, and the list metadata (or, for one object, its
 * resourceVersion). Pure: rows share the given objects and their metadata.
 *
 * @throws TableOptionsError for an unknown `includeObject` when there is a row.
 */
export function buildTable(
  def: { readonly tableColumns?: TableColumns },
  objects: ApiObject | readonly ApiObject[],
  options: BuildTableOptions,
): Table {
  const apiVersion = options.apiVersion ?? META_V1;
  const includeObject = options.includeObject ?? '';
  const columns = def.tableColumns ?? DEFAULT_TABLE_COLUMNS;
  const list = Array.isArray(objects);
  const items: readonly ApiObject[] = list ? objects : [objects as ApiObject];
  const metadata = list
    ? listMetadata(options.listMeta)
    : listMetadata({ resourceVersion: (objects as ApiObject).metadata?.resourceVersion });
  const rows = items.map((obj) => ({
    cells: columns.cells(obj, options.now),
    object: rowObject(obj, includeObject, apiVersion),
  }));
  return {
    kind: 'Table',
    apiVersion,
    metadata,
    columnDefinitions: options.noHeaders ? null : columns.columnDefinitions.map((c) => ({ ...c })),
    // kube's default convertor appends to a nil slice; the per-kind printers start from an empty one.
    rows: rows.length === 0 && !def.tableColumns ? null : rows,
  };
}

import { ORCH_DOMAIN } from '../api-domain.js';
import type { ApiObject, JsonValue, ObjectMeta } from '../object.js';

/** The group version Tables and partial metadata are served in by default. */
export const META_V1 = `${ORCH_DOMAIN.metaGroup}/v1`;
/** The older group version clients may still ask for (`as=Table;g=meta.orch.io;v=v1beta1`). */
export const META_V1BETA1 = `${ORCH_DOMAIN.metaGroup}/v1beta1`;

/** `TableColumnDefinition`: every member is always serialized (empty `format`, zero `priority`). */
export interface TableColumnDefinition {
  readonly name: string;
  /** OpenAPI type of the cells: `string`, `integer`, `number`, `boolean` or `date`. */
  readonly type: string;
  /** OpenAPI format hint, e.g. `name` for the object-name column; `''` when none. */
  readonly format: string;
  readonly description: string;
  /** 0 for the columns shown by default, higher for `-o wide` ones. */
  readonly priority: number;
}

/** One cell: a string, number, boolean, null, or a simple list or map. */
export type TableCell = JsonValue;

/** `PartialObjectMetadata`: an object reduced to `apiVersion`, `kind` and its whole `metadata`. */
export interface PartialObjectMetadata {
  kind: 'PartialObjectMetadata';
  apiVersion: string;
  metadata: ObjectMeta;
}

/** The `metadata` of a list (kube's `ListMeta`), members omitted when empty. */
export interface ListMetadata {
  resourceVersion?: string;
  continue?: string;
  remainingItemCount?: number;
}

/** `PartialObjectMetadataList`. `items` is null for an empty list, as kube serializes it. */
export interface PartialObjectMetadataList {
  kind: 'PartialObjectMetadataList';
  apiVersion: string;
  metadata: ListMetadata;
  items: PartialObjectMetadata[] | null;
}

/**
 * `TableRow`. `object` follows `includeObject`: the full object (`Object`), its
 * `PartialObjectMetadata` (`Metadata`, the default) or null (`None`, which kube serializes as
 * `"object": null`).
 */
export interface TableRow {
  cells: TableCell[];
  object: ApiObject | PartialObjectMetadata | null;
}

/**
 * `Table` (`meta.orch.io/v1`). `columnDefinitions` is null when headers were not asked for;
 * `rows` is null only for an empty list rendered with the default columns (kube's nil slice).
 */
export interface Table {
  kind: 'Table';
  apiVersion: string;
  metadata: ListMetadata;
  columnDefinitions: TableColumnDefinition[] | null;
  rows: TableRow[] | null;
}

/**
 * A kind's table layout (kube's per-type printer): its columns, all of them including the wide
 * ones, and how one object fills them.
 */
export interface TableColumns {
  readonly columnDefinitions: readonly TableColumnDefinition[];
  /**
   * The cells of `obj`'s row, one per column definition, in order. Pure; `now` is the instant
   * ages are measured to.
   */
  cells(obj: ApiObject, now: Date): TableCell[];
}

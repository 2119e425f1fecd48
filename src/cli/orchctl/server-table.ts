/**
 * Printing a server-side `Table` (meta `Table` v1) as `kubectl get` does: headers upper-cased,
 * priority-0 columns unless wide, a NAMESPACE column first with `--all-namespaces`, cells printed
 * as Go's `fmt.Print` prints them.
 */
import { alignColumns } from './tab-writer.js';

/** The parts of a Table orchctl reads. */
export interface ServerTable {
  readonly kind?: string;
  readonly metadata?: { readonly resourceVersion?: string };
  readonly columnDefinitions?: readonly { readonly name: string; readonly priority?: number }[];
  readonly rows?: readonly ServerTableRow[];
}

export interface ServerTableRow {
  readonly cells: readonly unknown[];
  readonly object?: { readonly metadata?: { readonly namespace?: string; readonly name?: string } };
}

/** How to print. */
export interface TablePrintOptions {
  readonly wide: boolean;
  readonly headers: boolean;
  readonly withNamespace: boolean;
  /** Prefixes the first cell with `<kind>/`, as kubectl does when several kinds are printed. */
  readonly kind?: string;
  /** Column widths printed before, widened in place (watch output). */
  readonly widths?: number[];
}

/** `the <Accept> of a Table request` in the domain's meta group. */
export function tableAccept(metaGroup: string): string {
  return `application/json;as=Table;v=v1;g=${metaGroup},application/json`;
}

function cellText(v: unknown): string {
  if (v === null || v === undefined) return '<nil>';
  if (typeof v === 'string') return v;
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  return JSON.stringify(v);
}

/** The header and rows of `rows` under `columns` as text (empty when no rows and no header). */
export function formatTable(
  columns: ServerTable['columnDefinitions'],
  rows: readonly ServerTableRow[],
  o: TablePrintOptions,
): string {
  const defs = columns ?? [];
  const shown = defs.map((c, i) => ({ c, i })).filter(({ c }) => o.wide || (c.priority ?? 0) === 0);
  const lines: string[][] = [];
  if (o.headers) lines.push([...(o.withNamespace ? ['NAMESPACE'] : []), ...shown.map(({ c }) => c.name.toUpperCase())]);
  for (const r of rows) {
    lines.push([
      ...(o.withNamespace ? [r.object?.metadata?.namespace ?? ''] : []),
      ...shown.map(({ i }) => (i === 0 && o.kind ? `${o.kind}/${cellText(r.cells[i])}` : cellText(r.cells[i]))),
    ]);
  }
  return alignColumns(lines, o.widths);
}

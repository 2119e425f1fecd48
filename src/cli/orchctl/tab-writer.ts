/**
 * Text columns as kubectl aligns them (Go's tabwriter with kubectl's settings: minimum cell
 * width 6, padding 3, spaces). Every cell but a line's last is padded to its column's width; the
 * last is printed as is.
 */

/** kubectl's tabwriter minimum cell width (padding included). */
export const TAB_MIN_WIDTH = 6;
/** kubectl's tabwriter padding. */
export const TAB_PADDING = 3;

function width(s: string): number {
  return [...s].length;
}

/**
 * The lines of `rows` aligned in columns, each ending with a newline. `remembered`, when given,
 * holds the column widths of earlier output and is widened in place: kubectl's watch output keeps
 * the widths of what it printed before (its tabwriter remembers widths across flushes).
 */
export function alignColumns(rows: readonly (readonly string[])[], remembered?: number[]): string {
  const widths: number[] = remembered ?? [];
  for (const row of rows) {
    row.forEach((cell, i) => {
      if (i === row.length - 1) return;
      widths[i] = Math.max(widths[i] ?? TAB_MIN_WIDTH, width(cell) + TAB_PADDING);
    });
  }
  return rows
    .map(
      (row) =>
        `${row.map((cell, i) => (i === row.length - 1 ? cell : cell + ' '.repeat(widths[i] - width(cell)))).join('')}\n`,
    )
    .join('');
}

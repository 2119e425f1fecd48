/** A suite's figures, as printed on its final JSON line. */
export type Figures = Readonly<Record<string, number>>;

/** Thrown when a figure is missing or is not a finite number; the message names each one. */
export class BlankFigureError extends Error {
  constructor(readonly names: readonly string[]) {
    super(`no figure measured for ${names.map((n) => JSON.stringify(n)).join(', ')} (not a finite number)`);
    this.name = 'BlankFigureError';
  }
}

/**
 * The final JSON line of a suite's figures. Throws {@link BlankFigureError} naming every figure
 * that is not a finite number (`JSON.stringify` would print NaN and Infinity as `null`, and drop
 * `undefined`), and every name of `expected` that has no figure at all.
 */
export function figuresLine(figures: Figures, expected: readonly string[] = []): string {
  const blank = Object.entries(figures as Record<string, unknown>)
    .filter(([, v]) => typeof v !== 'number' || !Number.isFinite(v))
    .map(([k]) => k);
  for (const name of expected) if (!(name in figures)) blank.push(name);
  if (blank.length > 0) throw new BlankFigureError(blank);
  return JSON.stringify(figures);
}

/**
 * Prints a suite's final JSON line (see {@link figuresLine}, which throws before anything is
 * printed when a figure is blank). Every suite ends through here.
 */
export function printFigures(figures: Figures, expected: readonly string[] = []): void {
  console.log(figuresLine(figures, expected));
}

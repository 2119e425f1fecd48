/**
 * The units of CEL cost, as kube-apiserver v1.32 counts them (cel-go's cost model) with the
 * spec's units where it states them: a simple operation costs 1 and a list literal has a base of
 * 40. Costs are integers; traversals of strings and bytes cost a tenth of their length.
 */
export const COST = Object.freeze({
  /** Literals and constant folding: free. */
  constant: 0,
  /** A variable or field selection, a simple operation. */
  selectOrIdent: 1,
  /** A call of a function without a size-dependent cost. */
  call: 1,
  /** A list literal's base (the spec's figure); its elements add theirs. */
  listCreateBase: 40,
  /** A map literal's base. */
  mapCreateBase: 30,
  /** Per unit of length when a function walks a string or bytes. */
  stringTraversalFactor: 0.1,
  /** Regex matching: the product of the input and pattern lengths, times this. */
  regexFactor: 0.25,
});

/** kube-apiserver's limits (apiextensions-apiserver and the validating admission policy). */
export const LIMITS = Object.freeze({
  /** Runtime cost of one evaluation of one expression. */
  perCall: 1_000_000,
  /** Runtime cost of every validation rule on one object, together. */
  perObject: 10_000_000,
  /** Estimated cost of one expression, checked when it is written. */
  estimatedPerExpression: 10_000_000,
});

/**
 * The largest request body (3 MiB): with no schema bound, a string, list or map is assumed as
 * large as fits in it, as kube does (a list of N elements needs at least 2 bytes per element).
 */
export const MAX_REQUEST_BYTES = 3 * 1024 * 1024;

/** Unbounded sizes, per kind of value, when the schema gives no maximum. */
export const UNBOUNDED = Object.freeze({
  string: MAX_REQUEST_BYTES - 2,
  list: Math.floor((MAX_REQUEST_BYTES - 2) / 2),
  map: Math.floor((MAX_REQUEST_BYTES - 2) / 4),
});

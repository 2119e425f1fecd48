import { COST } from './cost-model.js';

/**
 * What a comprehension macro costs besides its range and its bodies, as cel-go v0.22 estimates
 * the loop the macro expands to (`parser/macro.go`, `ext/comprehensions.go`, costed by
 * `checker/cost.go`): `once` is the accumulator's initial value plus the result, charged once;
 * `perElement` the loop condition plus the step's own operations, charged per element; the
 * macro's bodies (predicate, filter, transform) are added per element by the caller.
 */
export interface Comprehension {
  /** How many leading arguments are iteration variables (1, or 2 for the two-variable forms). */
  readonly variables: 1 | 2;
  readonly once: number;
  readonly perElement: number;
}

const ACCU = COST.selectOrIdent;
const CALL = COST.call;

/**
 * `all`: init `true` (0), condition `@not_strictly_false(acc)` (call + acc), step `acc && p`
 * (`&&` costs only its operands: acc), result acc.
 */
const ALL = { once: ACCU, perElement: CALL + ACCU + ACCU };
/** `exists`: condition `@not_strictly_false(!acc)` (two calls + acc), step `acc || p`, result acc. */
const EXISTS = { once: ACCU, perElement: CALL + CALL + ACCU + ACCU };
/**
 * `exists_one`: init 0, condition `true` (0), step `p ? acc + 1 : acc` (the dearer branch: acc and
 * one addition), result `acc == 1` (acc + an equality of two scalars, ceil(0.1 × 1) = 1).
 */
const EXISTS_ONE = { once: ACCU + 1, perElement: ACCU + CALL };
/**
 * `map`, `filter`, `transformList`: init `[]` (a list literal), condition `true`, step
 * `acc + [e]` (one list concatenation, acc, and a one-element list literal), result acc. `filter`'s
 * element is the iteration variable (one more unit); `map`'s is the transform, costed as a body.
 */
const LIST_BUILD = { once: COST.listCreateBase + ACCU, perElement: CALL + ACCU + COST.listCreateBase };
/**
 * `transformMap`: init `{}`, step `@mapInsert(acc, k, t)` (a call, acc and the key variable),
 * result acc. `transformMapEntry`: step `@mapInsert(acc, e)`.
 */
const MAP_BUILD = { once: COST.mapCreateBase + ACCU, perElement: CALL + ACCU + COST.selectOrIdent };
const MAP_ENTRY_BUILD = { once: COST.mapCreateBase + ACCU, perElement: CALL + ACCU };

/**
 * The comprehension a receiver call `name(args...)` is, or undefined when it is a plain function.
 * Which form applies follows from the number of arguments, as the macros are declared.
 */
export function comprehensionOf(name: string, args: readonly unknown[]): Comprehension | undefined {
  const n = args.length;
  switch (name) {
    case 'all':
      return n === 2 ? { variables: 1, ...ALL } : n === 3 ? { variables: 2, ...ALL } : undefined;
    case 'exists':
      return n === 2 ? { variables: 1, ...EXISTS } : n === 3 ? { variables: 2, ...EXISTS } : undefined;
    case 'exists_one':
      return n === 2 ? { variables: 1, ...EXISTS_ONE } : undefined;
    case 'existsOne':
      return n === 3 ? { variables: 2, ...EXISTS_ONE } : undefined;
    case 'map':
      // map(x, t) and map(x, filter, t): the filter is a body like the transform.
      return n === 2 || n === 3 ? { variables: 1, ...LIST_BUILD } : undefined;
    case 'filter':
      return n === 2 ? { variables: 1, once: LIST_BUILD.once, perElement: LIST_BUILD.perElement + ACCU } : undefined;
    case 'transformList':
      return n === 3 || n === 4 ? { variables: 2, ...LIST_BUILD } : undefined;
    case 'transformMap':
      return n === 3 || n === 4 ? { variables: 2, ...MAP_BUILD } : undefined;
    case 'transformMapEntry':
      return n === 3 || n === 4 ? { variables: 2, ...MAP_ENTRY_BUILD } : undefined;
    default:
      return undefined;
  }
}

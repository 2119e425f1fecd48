import type { EngineHandler } from './engine-internals.js';
import type { EnginePatch } from './engine-patches.js';
import { celEquals } from './library/cel-values.js';

/**
 * cel-go's comparisons across numeric types where the engine differs:
 *
 * - ordering of an `int` or `uint` against a `double` (`dyn(9223372036854775807) <
 *   9223372036854775808.0` is false): cel-go (v0.22, kube v1.32's) converts the integer to a
 *   double once the double is inside the integer type's range, so the comparison is as lossy as
 *   that conversion; the engine compares exactly;
 * - membership of a number in a list of numbers of another type (`dyn(3u) in [1, 2, 3]`), and
 *   equality of lists and maps holding numbers of different types (`[1, 2u] == [1.0, 2]`):
 *   heterogeneous numeric equality, as for `==` of two numbers. The engine's own answer stands
 *   when it is `true`; only its `false` is checked again with CEL equality, so equal lists and
 *   the common cases cost nothing more.
 */

const INT_MIN_DOUBLE = -(2 ** 63);
const INT_MAX_DOUBLE = 2 ** 63; // math.MaxInt64 rounded to a double, as Go's comparison sees it
const UINT_MAX_DOUBLE = 2 ** 64;

/** cel-go's `compareDoubleInt`/`compareDoubleUint`: -1, 0 or 1, or NaN when `d` is NaN. */
function compareDoubleInteger(d: number, i: bigint, unsigned: boolean): number {
  if (Number.isNaN(d)) return Number.NaN;
  if (d < (unsigned ? 0 : INT_MIN_DOUBLE)) return -1;
  if (d > (unsigned ? UINT_MAX_DOUBLE : INT_MAX_DOUBLE)) return 1;
  const x = Number(i);
  return d < x ? -1 : d > x ? 1 : 0;
}

const TESTS: Readonly<Record<string, (c: number) => boolean>> = {
  '<': (c) => c < 0,
  '<=': (c) => c <= 0,
  '>': (c) => c > 0,
  '>=': (c) => c >= 0,
};

function integerOf(v: unknown): bigint {
  return typeof v === 'bigint' ? v : (v as { valueOf(): bigint }).valueOf();
}

function orderingPatches(): EnginePatch[] {
  const patches: EnginePatch[] = [];
  for (const integer of ['int', 'uint']) {
    const unsigned = integer === 'uint';
    for (const [operator, test] of Object.entries(TESTS)) {
      patches.push({
        table: 'operator',
        operator,
        signature: `double ${operator} ${integer}: bool`,
        wrap: () => (a, b) => test(compareDoubleInteger(a as number, integerOf(b), unsigned)),
      });
      patches.push({
        table: 'operator',
        operator,
        signature: `${integer} ${operator} double: bool`,
        wrap: () => (a, b) => test(-compareDoubleInteger(b as number, integerOf(a), unsigned)),
      });
    }
  }
  return patches;
}

/** Whether CEL equality could find equal what the engine did not: a number or a container among the values. */
function mayDifferFromEngine(v: unknown): boolean {
  return typeof v === 'object' ? v !== null : typeof v === 'bigint' || typeof v === 'number';
}

function membership(engine: EngineHandler): EngineHandler {
  return (value, list, ...rest) => {
    if (engine(value, list, ...rest) === true) return true;
    if (!mayDifferFromEngine(value)) return false;
    for (const e of list as Iterable<unknown>) if (celEquals(value, e)) return true;
    return false;
  };
}

/**
 * The engine's `==` (or, `negate`d, `!=`) of two lists or two maps, with its `false` checked
 * again by CEL equality (numbers of different types in them). Exported for list-semantics.ts,
 * whose patch of the list overloads calls it for unmarked lists.
 */
export function withNumericEquality(engine: EngineHandler, negate: boolean): EngineHandler {
  return (a, b, ...rest) => {
    const r = engine(a, b, ...rest);
    if (r === !negate) return r;
    return celEquals(a, b) !== negate;
  };
}

/** The patches (lists' `==` and `!=` are list-semantics.ts's, which call {@link withNumericEquality}). */
export const NUMERIC_COMPARISON_PATCHES: readonly EnginePatch[] = [
  ...orderingPatches(),
  { table: 'operator', operator: 'in', signature: 'V in list<V>: bool', wrap: membership },
  {
    table: 'operator',
    operator: '==',
    signature: 'map<K, V> == map<K, V>: bool',
    wrap: (e) => withNumericEquality(e, false),
  },
  {
    table: 'operator',
    operator: '!=',
    signature: 'map<K, V> != map<K, V>: bool',
    wrap: (e) => withNumericEquality(e, true),
  },
];

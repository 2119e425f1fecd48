import { EvaluationError } from '@marcbachmann/cel-js';
import type { EnginePatch } from './engine-patches.js';

/**
 * 64-bit integer overflow where the engine misses it: negating the smallest int, dividing it by
 * -1 (quotient and remainder), and converting a double outside the int range (cel-go's
 * `integer overflow` in each case; the engine returns a number beyond 64 bits).
 */
const MIN_INT = -(2n ** 63n);
/** The doubles that convert, as cel-go's `doubleToInt64Checked`: -2^63 < d < 2^63. */
const DOUBLE_MIN = -(2 ** 63);
const DOUBLE_LIMIT = 2 ** 63;

function overflow(): EvaluationError {
  return new EvaluationError({ code: 'numeric_overflow', message: 'integer overflow' });
}

const divisionByMinusOne = (operator: string): EnginePatch => ({
  table: 'operator',
  operator,
  signature: `int ${operator} int: int`,
  wrap:
    (engine) =>
    (a, b, ...rest) => {
      if (a === MIN_INT && b === -1n) throw overflow();
      return engine(a, b, ...rest);
    },
});

export const INTEGER_PATCHES: readonly EnginePatch[] = [
  {
    table: 'operator',
    operator: '-_',
    signature: '-_int: int',
    wrap:
      (engine) =>
      (a, ...rest) => {
        if (a === MIN_INT) throw overflow();
        return engine(a, ...rest);
      },
  },
  divisionByMinusOne('/'),
  divisionByMinusOne('%'),
  {
    table: 'function',
    name: 'int',
    receiver: false,
    arity: 1,
    signature: 'int(double): int',
    wrap: (engine) =>
      function (this: unknown, d, ...rest) {
        if (typeof d === 'number' && !(d > DOUBLE_MIN && d < DOUBLE_LIMIT)) throw overflow();
        return engine.call(this, d, ...rest);
      },
  },
];

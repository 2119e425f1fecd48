import { Quantity, QuantityError } from '../../util/go-quantity.js';
import type { CelLibrary } from '../cel-library.js';
import { type CelObject, celError, registerFunctions, registerObjectType } from './cel-values.js';

const QUANTITY = 'kubernetes.Quantity';

/** A CEL `kubernetes.Quantity`. */
class QuantityValue implements CelObject {
  readonly celType = QUANTITY;
  constructor(readonly q: Quantity) {}

  /** kube's `Quantity.Equal`: the same amount, whatever the suffix (`200M == 0.2G`). */
  equals(other: CelObject): boolean {
    return other instanceof QuantityValue && this.q.cmp(other.q) === 0;
  }
}

/** Runs a quantity operation, reporting kube's parse errors as CEL errors. */
function quantityOp<T>(op: () => T): T {
  try {
    return op();
  } catch (err) {
    if (err instanceof QuantityError) throw celError(err.message);
    throw err;
  }
}

function isQuantity(s: string): boolean {
  try {
    Quantity.parse(s);
    return true;
  } catch (err) {
    if (err instanceof QuantityError) return false;
    throw err;
  }
}

const wrap = (q: Quantity): QuantityValue => new QuantityValue(q);

/**
 * kube's `kubernetes.quantity` library (quantity.go, v1.32): `quantity(<string>)` (errors as
 * `resource.ParseQuantity`'s), `isQuantity(<string>)`, `sign(<Quantity>)` (a global function in
 * kube, not a method), and on a quantity `isInteger()`, `asInteger()` (`cannot convert value
 * to integer` on overflow, loss of precision, or a quantity kube holds as an exact decimal),
 * `asApproximateFloat()`, `add` and `sub` of a quantity or an int, `isLessThan`,
 * `isGreaterThan` and `compareTo`. Arithmetic is exact.
 */
export const quantityLibrary: CelLibrary = {
  name: 'kubernetes.quantity',
  register(env) {
    registerObjectType(env, QUANTITY, QuantityValue);
    registerFunctions(env, [
      [`quantity(string): ${QUANTITY}`, (s: string) => wrap(quantityOp(() => Quantity.parse(s)))],
      ['isQuantity(string): bool', isQuantity],
      [`sign(${QUANTITY}): int`, (a: QuantityValue) => BigInt(a.q.sign())],
      [`${QUANTITY}.isGreaterThan(${QUANTITY}): bool`, (a: QuantityValue, b: QuantityValue) => a.q.cmp(b.q) === 1],
      [`${QUANTITY}.isLessThan(${QUANTITY}): bool`, (a: QuantityValue, b: QuantityValue) => a.q.cmp(b.q) === -1],
      [`${QUANTITY}.compareTo(${QUANTITY}): int`, (a: QuantityValue, b: QuantityValue) => BigInt(a.q.cmp(b.q))],
      [`${QUANTITY}.asApproximateFloat(): double`, (a: QuantityValue) => a.q.asApproximateFloat64()],
      [
        `${QUANTITY}.asInteger(): int`,
        (a: QuantityValue) => {
          const v = a.q.asInt64();
          if (v === undefined) throw celError('cannot convert value to integer');
          return v;
        },
      ],
      [`${QUANTITY}.isInteger(): bool`, (a: QuantityValue) => a.q.asInt64() !== undefined],
      [
        `${QUANTITY}.add(${QUANTITY}): ${QUANTITY}`,
        (a: QuantityValue, b: QuantityValue) => wrap(quantityOp(() => a.q.add(b.q))),
      ],
      [
        `${QUANTITY}.add(int): ${QUANTITY}`,
        (a: QuantityValue, b: bigint) => wrap(quantityOp(() => a.q.add(Quantity.fromInt64(b)))),
      ],
      [
        `${QUANTITY}.sub(${QUANTITY}): ${QUANTITY}`,
        (a: QuantityValue, b: QuantityValue) => wrap(quantityOp(() => a.q.sub(b.q))),
      ],
      [
        `${QUANTITY}.sub(int): ${QUANTITY}`,
        (a: QuantityValue, b: bigint) => wrap(quantityOp(() => a.q.sub(Quantity.fromInt64(b)))),
      ],
    ]);
  },
};

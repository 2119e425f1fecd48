import type { CelLibrary } from '../cel-library.js';
import { NAMESPACE_TYPES } from '../function-namespaces.js';
import { celEquals, listElements, registerFunctions } from './cel-values.js';

/** The type of the `sets` identifier that carries the three functions. */
const SETS_FUNCTIONS = NAMESPACE_TYPES.sets;

class SetsFunctions {}

const includes = (list: readonly unknown[], v: unknown): boolean => list.some((e) => celEquals(e, v));

function contains(list: Iterable<unknown>, sublist: Iterable<unknown>): boolean {
  const l = listElements(list);
  return listElements(sublist).every((v) => includes(l, v));
}

/**
 * cel-go's `ext.Sets` (v0.22, in kube-apiserver v1.32's environment from 1.29):
 * `sets.contains(<list>, <sublist>)` (every element of the second is in the first),
 * `sets.equivalent(<list>, <list>)` (each contains the other; order and duplicates do not
 * matter) and `sets.intersects(<list>, <list>)`. Elements compare with CEL equality, so `1`,
 * `1.0` and `1u` are the same element.
 */
export const setsLibrary: CelLibrary = {
  name: 'cel.lib.ext.sets',
  register(env) {
    env.registerType(SETS_FUNCTIONS, { ctor: SetsFunctions, fields: {} });
    env.registerConstant('sets', SETS_FUNCTIONS, new SetsFunctions());
    registerFunctions(env, [
      [
        `${SETS_FUNCTIONS}.contains(list<T>, list<T>): bool`,
        (_: SetsFunctions, a: unknown[], b: unknown[]) => contains(a, b),
      ],
      [
        `${SETS_FUNCTIONS}.equivalent(list<T>, list<T>): bool`,
        (_: SetsFunctions, a: unknown[], b: unknown[]) => contains(a, b) && contains(b, a),
      ],
      [
        `${SETS_FUNCTIONS}.intersects(list<T>, list<T>): bool`,
        (_: SetsFunctions, a: unknown[], b: unknown[]) => {
          const r = listElements(b);
          return listElements(a).some((v) => includes(r, v));
        },
      ],
    ]);
  },
};

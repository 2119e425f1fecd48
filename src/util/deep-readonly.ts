/** Values `DeepReadonly` leaves as they are: primitives, functions and opaque built-ins. */
type Immutable =
  | string
  | number
  | boolean
  | bigint
  | symbol
  | null
  | undefined
  | Date
  | RegExp
  | Uint8Array
  | ((...args: never[]) => unknown);

/**
 * `T` with every property, array, map and set read-only, recursively: the type of an object
 * shared by several readers (the watch cache's objects), which none of them may change. A type
 * only; nothing is frozen at run time. `unknown` and `any` stay as they are.
 */
export type DeepReadonly<T> = unknown extends T
  ? T
  : T extends Immutable
    ? T
    : T extends ReadonlyMap<infer K, infer V>
      ? ReadonlyMap<DeepReadonly<K>, DeepReadonly<V>>
      : T extends ReadonlySet<infer E>
        ? ReadonlySet<DeepReadonly<E>>
        : T extends readonly (infer E)[]
          ? readonly DeepReadonly<E>[]
          : { readonly [K in keyof T]: DeepReadonly<T[K]> };

import type { EnginePatch } from './engine-patches.js';
import { withNumericEquality } from './numeric-comparison.js';

/**
 * Lists of `x-orch-list-type: set` and `map` as kube-apiserver gives them to CEL: `X == Y` ignores
 * order (a set compares membership, a map list compares the element under each key), and `X + Y`
 * merges instead of concatenating (a set appends the elements of Y that X lacks; a map list keeps
 * X's positions, takes Y's element where the keys meet and appends Y's new keys). The left operand
 * decides, as in kube. Such lists are ordinary arrays carrying their {@link ListSemantics} under
 * {@link LIST_SEMANTICS}; every other list behaves as the engine defines.
 */

/** Property under which a converted array carries its list type. */
export const LIST_SEMANTICS: unique symbol = Symbol('orch.cel.listSemantics');

/** How a set or map list compares and merges. One instance per schema array, shared by its values. */
export interface ListSemantics {
  readonly listType: 'set' | 'map';
  /** Identity of an element: the element itself for a set, its key fields for a map list. */
  key(element: unknown): unknown;
  /** Equality of two elements with the same key. */
  equal(a: unknown, b: unknown): boolean;
}

type MarkedList = unknown[] & { [LIST_SEMANTICS]?: ListSemantics };

/** Marks `list` (a fresh array) with its list type and returns it. */
export function withListSemantics(list: unknown[], semantics: ListSemantics): unknown[] {
  (list as MarkedList)[LIST_SEMANTICS] = semantics;
  return list;
}

function semanticsOf(value: unknown): ListSemantics | undefined {
  return Array.isArray(value) ? (value as MarkedList)[LIST_SEMANTICS] : undefined;
}

function listEqual(s: ListSemantics, x: readonly unknown[], y: unknown): boolean {
  if (!Array.isArray(y) || y.length !== x.length) return false;
  const byKey = new Map<unknown, unknown>();
  for (const e of x) byKey.set(s.key(e), e);
  for (const e of y) {
    const k = s.key(e);
    if (k === undefined || !byKey.has(k) || !s.equal(byKey.get(k), e)) return false;
  }
  return true;
}

function listAdd(s: ListSemantics, x: readonly unknown[], y: Iterable<unknown>): unknown[] {
  const out = [...x];
  const index = new Map<unknown, number>();
  for (let i = 0; i < x.length; i++) index.set(s.key(x[i]), i);
  for (const e of y) {
    const k = s.key(e);
    const at = k === undefined ? undefined : index.get(k);
    if (at === undefined) {
      if (k !== undefined) index.set(k, out.length);
      out.push(e);
    } else if (s.listType === 'map') out[at] = e;
  }
  return withListSemantics(out, s);
}

/**
 * The engine's list overloads with set and map lists handled: its `list<V> == list<V>` and
 * `list<V> + list<V>` cannot be registered twice, and an overload for a concrete list type would
 * clash with them whenever one side is `[]` or dynamic, so the engine's own are wrapped; every
 * unmarked list goes to the engine's handler.
 */
export const LIST_PATCHES: readonly EnginePatch[] = [
  {
    table: 'operator',
    operator: '==',
    signature: 'list<V> == list<V>: bool',
    wrap: (engine) => {
      const unmarked = withNumericEquality(engine, false);
      return (a, b, node, ev) => {
        const s = semanticsOf(a);
        return s ? listEqual(s, a as unknown[], b) : unmarked(a, b, node, ev);
      };
    },
  },
  {
    table: 'operator',
    operator: '!=',
    signature: 'list<V> != list<V>: bool',
    wrap: (engine) => {
      const unmarked = withNumericEquality(engine, true);
      return (a, b, node, ev) => {
        const s = semanticsOf(a);
        return s ? !listEqual(s, a as unknown[], b) : unmarked(a, b, node, ev);
      };
    },
  },
  {
    table: 'operator',
    operator: '+',
    signature: 'list<V> + list<V>: list<V>',
    wrap: (engine) => (a, b, node, ev) => {
      const s = semanticsOf(a);
      return s ? listAdd(s, a as unknown[], b as Iterable<unknown>) : engine(a, b, node, ev);
    },
  },
];

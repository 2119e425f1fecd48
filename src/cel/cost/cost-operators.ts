import { COST, UNBOUNDED } from './cost-model.js';

/** A node's worst-case cost and what the estimator knows of its value. */
export interface Sized {
  readonly cost: number;
  /** Largest size of the result (string/bytes length, list items, map entries; 1 for a scalar literal); undefined when unknown. */
  readonly size: number | undefined;
  /** The variable path the result was selected from, for size bounds. */
  readonly path: readonly string[] | undefined;
}

/** The path step to a map's keys (as cel-go's `@keys`); `*` steps to list elements and map values. */
export const KEYS = '@keys';

interface TypedNode {
  readonly checkedType?: { readonly kind: string; readonly name: string };
}

/** The kind of a node's checked type (`list`, `map`, `primitive`, `dyn`, ...), undefined when unchecked. */
export function kindOf(node: unknown): string | undefined {
  return (node as TypedNode).checkedType?.kind;
}

/**
 * The size cel-go gives a literal: a string's length in code points, bytes' length, 1 for any
 * other constant (bool, int, uint, double, null).
 */
export function literalSize(value: unknown): number {
  if (typeof value === 'string') return codePoints(value);
  if (value instanceof Uint8Array) return value.length;
  return 1;
}

/** A string's length in code points (CEL's `size()`), without allocating. */
export function codePoints(s: string): number {
  let n = s.length;
  for (let i = 0; i < s.length - 1; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff) {
      const d = s.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        n--;
        i++;
      }
    }
  }
  return n;
}

type Category = 'string' | 'bytes' | 'list' | 'map' | 'scalar' | 'unknown';

/** What an operand is, from its checked type: `unknown` for `dyn`, type parameters and unchecked trees. */
function categoryOf(node: unknown): Category {
  const t = (node as TypedNode).checkedType;
  if (!t || t.kind === 'dyn' || t.kind === 'param') return 'unknown';
  if (t.kind === 'list' || t.kind === 'map') return t.kind;
  if (t.kind === 'primitive' && (t.name === 'string' || t.name === 'bytes')) return t.name;
  return 'scalar';
}

/**
 * The largest size of an operand: its known size, else by type what cel-go assumes (a scalar 1;
 * a string, bytes, list, map or a value of unknown type as large as fits in a request).
 */
function sizeOf(operand: Sized & { readonly node: unknown }): number {
  if (operand.size !== undefined) return operand.size;
  switch (categoryOf(operand.node)) {
    case 'scalar':
      return 1;
    case 'list':
      return UNBOUNDED.list;
    case 'map':
      return UNBOUNDED.map;
    default:
      return UNBOUNDED.string;
  }
}

/** cel-go's traversal charge: ceil(0.1 × size). */
function traversal(size: number): number {
  return Math.ceil(size * COST.stringTraversalFactor);
}

const ORDERING = new Set(['<', '<=', '>', '>=']);

/**
 * A binary operator's cost as cel-go v0.22 estimates it (`checker/cost.go`), its operands
 * included:
 * - `==`, `!=` (any types): ceil(0.1 × the smaller of the operands' largest sizes), so two
 *   scalars cost 1 and comparing with an empty string nothing;
 * - `<` `<=` `>` `>=` on strings or bytes the same; on other types 1;
 * - `+` on strings or bytes ceil(0.1 × the sum of the sizes); on lists 1; both give a result as
 *   large as the sum; on numbers 1;
 * - where both operands are `dyn` the dearer of the candidate overloads;
 * - `in` a list's size, `in` a map 1 (a `dyn` container: its size when known, else 1);
 * - the arithmetic operators 1.
 */
export function binaryCost(
  op: string,
  l: Sized & { readonly node: unknown },
  r: Sized & { readonly node: unknown },
): Sized {
  const operands = l.cost + r.cost;
  const cl = categoryOf(l.node);
  const cr = categoryOf(r.node);
  const category = cl === 'unknown' ? cr : cl;
  if (op === '==' || op === '!=') {
    return { cost: operands + traversal(Math.min(sizeOf(l), sizeOf(r))), size: undefined, path: undefined };
  }
  if (ORDERING.has(op)) {
    const compare = traversal(Math.min(sizeOf(l), sizeOf(r)));
    const own =
      category === 'string' || category === 'bytes'
        ? compare
        : category === 'unknown'
          ? Math.max(COST.call, compare)
          : COST.call;
    return { cost: operands + own, size: undefined, path: undefined };
  }
  if (op === '+') {
    const joined = sizeOf(l) + sizeOf(r);
    if (category === 'string' || category === 'bytes') {
      return { cost: operands + traversal(joined), size: joined, path: undefined };
    }
    if (category === 'list') return { cost: operands + COST.call, size: joined, path: undefined };
    if (category === 'unknown') {
      return { cost: operands + Math.max(COST.call, traversal(joined)), size: joined, path: undefined };
    }
    return { cost: operands + COST.call, size: undefined, path: undefined };
  }
  if (op === 'in') {
    // cel-go: membership in a list walks it (its size), in a map costs 1.
    const own = cr === 'list' ? sizeOf(r) : cr === 'map' ? COST.call : Math.max(COST.call, r.size ?? COST.call);
    return { cost: operands + own, size: undefined, path: undefined };
  }
  return { cost: operands + COST.call, size: undefined, path: undefined };
}

import { isFunctionNamespace, NAMESPACE_TYPES } from '../function-namespaces.js';
import { COST, UNBOUNDED } from './cost-model.js';

/** A node of the engine's checked AST: its operator and operands (what the estimator reads). */
export interface CelNode {
  readonly op: string;
  readonly args: unknown;
}

type ASTNode = CelNode;

/**
 * The largest size (string/bytes length, list items, map entries) a value at `path` can have:
 * `path` starts at a variable (`['self', 'spec', 'items']`); `*` stands for a list element or
 * map value. Undefined when nothing bounds it.
 */
export type SizeBound = (path: readonly string[]) => number | undefined;

/** The worst-case cost of an expression, and what it was computed from. */
export interface CostEstimate {
  readonly cost: number;
}

const MACROS = new Set(['all', 'exists', 'exists_one', 'map', 'filter']);
/** Functions that walk their receiver string once. */
const STRING_TRAVERSALS = new Set([
  'contains',
  'startsWith',
  'endsWith',
  'lowerAscii',
  'upperAscii',
  'trim',
  'indexOf',
  'lastIndexOf',
  'split',
  'replace',
  'substring',
  'charAt',
  'quote',
]);
const REGEX_FUNCTIONS = new Set(['matches', 'find', 'findAll']);
/** Functions that walk their receiver list once. */
const LIST_TRAVERSALS = new Set([
  'indexOf',
  'lastIndexOf',
  'min',
  'max',
  'sum',
  'isSorted',
  'distinct',
  'flatten',
  'reverse',
  'sort',
  'join',
]);

interface Sized {
  readonly cost: number;
  /** Largest size of the result when it is a string, bytes, list or map; undefined when unknown. */
  readonly size: number | undefined;
  /** The variable path the result was selected from, for size bounds. */
  readonly path: readonly string[] | undefined;
}

/**
 * Estimates an expression's worst-case cost from the checked AST and size bounds, as
 * kube-apiserver's static estimator does before accepting a rule: each node costs its operands
 * plus its own unit cost (a field selection only on maps and objects, a presence test nothing
 * beyond its operand, a namespace such as `sets` nothing, as cel-go with kube's options
 * counts); string functions cost a tenth of the string's length; regex functions
 * the product of input and pattern lengths (a quarter of it); comprehensions the per-element cost
 * times the largest number of elements. Deterministic and pure.
 *
 * The same walk with bounds read from actual values gives the cost of one evaluation on that
 * input (an upper bound: short-circuits are not credited), which the runtime budget charges.
 */
export function estimateCost(ast: ASTNode, bound: SizeBound): CostEstimate {
  return { cost: Math.ceil(walk(ast, bound, new Map()).cost) };
}

type Scope = Map<string, readonly string[]>;

function sizeAt(path: readonly string[] | undefined, bound: SizeBound): number | undefined {
  return path === undefined ? undefined : bound(path);
}

function walk(node: ASTNode, bound: SizeBound, scope: Scope): Sized {
  const n = node as unknown as { op: string; args: unknown };
  switch (n.op) {
    case 'value': {
      const v = n.args;
      const size = typeof v === 'string' ? v.length : v instanceof Uint8Array ? v.length : undefined;
      return { cost: COST.constant, size, path: undefined };
    }
    case 'id': {
      const name = n.args as string;
      const path = scope.get(name) ?? [name];
      return { cost: COST.selectOrIdent, size: sizeAt(path, bound), path };
    }
    case '.':
    case '.?': {
      const [operand, field] = n.args as [ASTNode, string];
      // `net.IP`: one qualified identifier.
      if (isFunctionNamespace(operand)) return { cost: COST.selectOrIdent, size: undefined, path: undefined };
      const o = walk(operand, bound, scope);
      const path = o.path ? [...o.path, field] : undefined;
      // `.?` is a call (one unit); `.` costs as cel-go's estimator charges a selection.
      const own = n.op === '.?' || selectionCharged(operand) ? COST.selectOrIdent : 0;
      return { cost: o.cost + own, size: sizeAt(path, bound), path };
    }
    case '[]':
    case '[?]': {
      const [operand, index] = n.args as [ASTNode, ASTNode];
      const o = walk(operand, bound, scope);
      const i = walk(index, bound, scope);
      const path = o.path ? [...o.path, '*'] : undefined;
      return { cost: o.cost + i.cost + COST.selectOrIdent, size: sizeAt(path, bound), path };
    }
    case 'list': {
      const items = (n.args as ASTNode[]).map((a) => walk(a, bound, scope));
      return { cost: COST.listCreateBase + sum(items), size: items.length, path: undefined };
    }
    case 'map': {
      const entries = n.args as [ASTNode, ASTNode][];
      let cost = COST.mapCreateBase;
      for (const [k, v] of entries) cost += walk(k, bound, scope).cost + walk(v, bound, scope).cost;
      return { cost, size: entries.length, path: undefined };
    }
    case '&&':
    case '||': {
      const [l, r] = (n.args as ASTNode[]).map((a) => walk(a, bound, scope));
      return { cost: l.cost + r.cost, size: undefined, path: undefined };
    }
    case '?:': {
      const [c, t, f] = (n.args as ASTNode[]).map((a) => walk(a, bound, scope));
      return { cost: c.cost + Math.max(t.cost, f.cost), size: maxSize(t.size, f.size), path: undefined };
    }
    case '!_':
    case '-_': {
      const o = walk(n.args as ASTNode, bound, scope);
      return { cost: o.cost + COST.call, size: undefined, path: undefined };
    }
    case 'call': {
      const [name, args] = n.args as [string, ASTNode[]];
      if (name === 'has') {
        // A presence test costs what its operand costs: kube turns cel-go's presence-test unit
        // off (`PresenceTestHasCost(false)`), and the tested field is not selected.
        const select = args[0] as unknown as { op: string; args: unknown };
        const operand = select.op === '.' ? (select.args as [ASTNode, string])[0] : (select as ASTNode);
        return { cost: walk(operand, bound, scope).cost, size: undefined, path: undefined };
      }
      const walked = args.map((a) => walk(a, bound, scope));
      return callCost(name, undefined, walked);
    }
    case 'rcall': {
      const [name, receiver, args] = n.args as [string, ASTNode, ASTNode[]];
      if (MACROS.has(name)) return macroCost(name, receiver, args, bound, scope);
      const walked = args.map((a) => walk(a, bound, scope));
      // `optional.of(x)`, `sets.contains(a, b)`: a function of the namespace, not a variable read.
      if (isFunctionNamespace(receiver)) return namespacedCallCost(receiver, name, walked);
      return callCost(name, walk(receiver, bound, scope), walked);
    }
    default: {
      // Binary operators: both operands and one operation; string and list operands are walked.
      const [l, r] = (n.args as ASTNode[]).map((a) => walk(a, bound, scope));
      const traversal = ['==', '!=', '<', '<=', '>', '>=', '+', 'in'].includes(n.op)
        ? Math.min(l.size ?? 0, r.size ?? 0) * COST.stringTraversalFactor
        : 0;
      const size = n.op === '+' && l.size !== undefined && r.size !== undefined ? l.size + r.size : undefined;
      const concat = n.op === '+' ? ((l.size ?? 0) + (r.size ?? 0)) * COST.stringTraversalFactor : 0;
      return { cost: l.cost + r.cost + COST.call + Math.max(traversal, concat), size, path: undefined };
    }
  }
}

function callCost(name: string, receiver: Sized | undefined, args: readonly Sized[]): Sized {
  const base = (receiver?.cost ?? 0) + sum(args) + COST.call;
  const input = receiver ?? args[0];
  const inputSize = input?.size ?? UNBOUNDED.string;
  if (REGEX_FUNCTIONS.has(name)) {
    const pattern = (receiver ? args[0] : args[1])?.size ?? UNBOUNDED.string;
    return { cost: base + inputSize * pattern * COST.regexFactor, size: undefined, path: undefined };
  }
  if (STRING_TRAVERSALS.has(name) || LIST_TRAVERSALS.has(name)) {
    const sameSize = ['lowerAscii', 'upperAscii', 'trim', 'reverse', 'sort', 'distinct'].includes(name);
    return {
      cost: base + inputSize * COST.stringTraversalFactor,
      size: sameSize ? input?.size : undefined,
      path: undefined,
    };
  }
  return { cost: base, size: undefined, path: undefined };
}

/**
 * `range.all(x, body)`, `exists`, `exists_one`, `filter`, `map` (2 or 3 arguments): the range,
 * then for each element (as many as the range can hold) the body and one step.
 */
function macroCost(name: string, receiver: ASTNode, args: readonly ASTNode[], bound: SizeBound, scope: Scope): Sized {
  const range = walk(receiver, bound, scope);
  const variable = (args[0] as unknown as { op: string; args: unknown }).args as string;
  const inner: Scope = new Map(scope);
  if (range.path) inner.set(variable, [...range.path, '*']);
  else inner.delete(variable);
  let perElement = COST.call;
  for (const a of args.slice(1)) perElement += walk(a, bound, inner).cost;
  const elements = range.size ?? UNBOUNDED.list;
  const size = name === 'map' || name === 'filter' ? range.size : undefined;
  return { cost: range.cost + elements * perElement, size, path: undefined };
}

/** cel-go's `ext.Sets` estimate: a unit, plus the product of the lists' sizes (twice it for `equivalent`). */
const SETS_FACTORS: Readonly<Record<string, number>> = { contains: 1, intersects: 1, equivalent: 2 };

/**
 * A function of a namespace (`sets.contains(a, b)`, `optional.of(x)`, `strings.quote(s)`): its
 * arguments and the function's own cost; the namespace costs nothing.
 */
function namespacedCallCost(namespace: ASTNode, name: string, args: readonly Sized[]): Sized {
  const factor = SETS_FACTORS[name];
  if (factor !== undefined && isSets(namespace) && args.length === 2) {
    const [a, b] = args.map((x) => x.size ?? UNBOUNDED.list);
    return { cost: sum(args) + COST.call + a * b * factor, size: undefined, path: undefined };
  }
  return callCost(name, undefined, args);
}

function isSets(namespace: ASTNode): boolean {
  const type = (namespace as { readonly checkedType?: { readonly name: string } }).checkedType;
  return type === undefined ? namespace.args === 'sets' : type.name === NAMESPACE_TYPES.sets;
}

/** The kinds of checked type a selection from which costs one unit (cel-go: maps, structs, type parameters). */
const CHARGED_SELECTION = new Set(['map', 'message', 'param']);

/**
 * Whether selecting a field of `operand` costs a unit, as cel-go's estimator decides from the
 * operand's type: on a map, an object or a type parameter it does; on `dyn` (admission's
 * `object`, `claims`), an optional and the rest it does not. An operand without a checked type
 * (a tree that was not type-checked) is charged, which keeps the estimate an upper bound.
 */
function selectionCharged(operand: ASTNode): boolean {
  const kind = (operand as { readonly checkedType?: { readonly kind?: string } }).checkedType?.kind;
  return kind === undefined || CHARGED_SELECTION.has(kind);
}

function sum(xs: readonly Sized[]): number {
  let s = 0;
  for (const x of xs) s += x.cost;
  return s;
}

function maxSize(a: number | undefined, b: number | undefined): number | undefined {
  return a === undefined || b === undefined ? undefined : Math.max(a, b);
}

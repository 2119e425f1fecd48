import { isFunctionNamespace, NAMESPACE_TYPES } from '../function-namespaces.js';
import { type Comprehension, comprehensionOf } from './comprehension-costs.js';
import { COST, UNBOUNDED } from './cost-model.js';
import { binaryCost, KEYS, kindOf, literalSize, type Sized } from './cost-operators.js';

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

/**
 * Estimates an expression's worst-case cost from the checked AST and size bounds, as
 * kube-apiserver v1.32's static estimator (cel-go v0.22 `checker/cost.go` with kube's options and
 * function estimates) does before accepting a rule: each node costs its operands plus its own
 * unit cost (a field selection only on maps and objects, a presence test nothing beyond its
 * operand, a namespace such as `sets` nothing); equality ceil(0.1 × the smaller operand size);
 * string functions and regexes by their sizes; a comprehension the loop its macro expands to
 * (see `comprehension-costs.ts`) times the largest number of elements. Deterministic and pure.
 *
 * The same walk with bounds read from actual values gives the cost of one evaluation on that
 * input (an upper bound of cel-go's runtime cost: loops stopped early and branches not taken are
 * not credited), which the runtime budget charges.
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
      return { cost: COST.constant, size: literalSize(n.args), path: undefined };
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
      // `-1.0`: cel-go parses a signed number as one literal.
      const operand = n.args as ASTNode;
      if (n.op === '-_' && operand.op === 'value' && isNumber(operand.args)) return walk(operand, bound, scope);
      const o = walk(operand, bound, scope);
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
      const macro = comprehensionOf(name, args);
      if (macro) return comprehensionCost(macro, receiver, args, bound, scope);
      const walked = args.map((a) => walk(a, bound, scope));
      // `optional.of(x)`, `sets.contains(a, b)`: a function of the namespace, not a variable read.
      if (isFunctionNamespace(receiver)) return namespacedCallCost(receiver, name, walked);
      return callCost(name, walk(receiver, bound, scope), walked);
    }
    default: {
      const [left, right] = n.args as ASTNode[];
      const l = walk(left, bound, scope);
      const r = walk(right, bound, scope);
      return binaryCost(n.op, { node: left, ...l }, { node: right, ...r });
    }
  }
}

function callCost(name: string, receiver: Sized | undefined, args: readonly Sized[]): Sized {
  const base = (receiver?.cost ?? 0) + sum(args) + COST.call;
  const input = receiver ?? args[0];
  const inputSize = input?.size ?? UNBOUNDED.string;
  const operands = base - COST.call;
  const traverse = (size: number, factor: number = COST.stringTraversalFactor) => Math.ceil(size * factor);
  if (REGEX_FUNCTIONS.has(name)) {
    // cel-go (matches) and kube (find, findAll): ceil(0.1 × (input + 1)) × ceil(0.25 × pattern).
    const pattern = (receiver ? args[0] : args[1])?.size ?? UNBOUNDED.string;
    const cost = operands + traverse(inputSize + 1) * traverse(pattern, COST.regexFactor);
    return { cost, size: name === 'matches' ? undefined : inputSize, path: undefined };
  }
  const argSize = args[0]?.size ?? UNBOUNDED.string;
  if (receiver && args.length === 1 && (name === 'startsWith' || name === 'endsWith')) {
    // cel-go: a tenth of the prefix's (suffix's) size.
    return { cost: operands + traverse(argSize), size: undefined, path: undefined };
  }
  if (receiver && args.length === 1 && name === 'contains') {
    // cel-go: the product of the tenths of both sizes.
    return { cost: operands + traverse(inputSize) * traverse(argSize), size: undefined, path: undefined };
  }
  if (receiver && ['lowerAscii', 'upperAscii', 'trim', 'substring'].includes(name)) {
    // kube: a tenth of the receiver's size; the result is no larger.
    return { cost: operands + traverse(inputSize), size: receiver.size, path: undefined };
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
 * A comprehension's cost as cel-go estimates the loop its macro expands to: the range, the
 * accumulator's initial value and the result once, and for each element the range can hold
 * (its size bound) the loop condition and the step, which contains the macro's body.
 */
function comprehensionCost(
  macro: Comprehension,
  receiver: ASTNode,
  args: readonly ASTNode[],
  bound: SizeBound,
  scope: Scope,
): Sized {
  const range = walk(receiver, bound, scope);
  const inner: Scope = new Map(scope);
  const names = args.slice(0, macro.variables).map((a) => (a as unknown as { args: unknown }).args as string);
  const overMap = kindOf(receiver) === 'map';
  // One variable: the element of a list or the key of a map. Two: the index (or key) and the element (or value).
  const elementPaths = (extra: string): readonly string[] | undefined =>
    range.path ? [...range.path, extra] : undefined;
  const paths =
    macro.variables === 1
      ? [elementPaths(overMap ? KEYS : '*')]
      : [overMap ? elementPaths(KEYS) : undefined, elementPaths('*')];
  names.forEach((name, i) => {
    const path = paths[i];
    if (path) inner.set(name, path);
    else inner.delete(name);
  });
  const bodies = args.slice(macro.variables).map((a) => walk(a, bound, inner).cost);
  const elements = range.size ?? (overMap ? UNBOUNDED.map : UNBOUNDED.list);
  const perElement = macro.perElement + sumOf(bodies);
  return { cost: range.cost + macro.once + elements * perElement, size: elements, path: undefined };
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

function isNumber(v: unknown): boolean {
  return typeof v === 'number' || typeof v === 'bigint' || v instanceof Number;
}

function sumOf(xs: readonly number[]): number {
  let s = 0;
  for (const x of xs) s += x;
  return s;
}

function sum(xs: readonly Sized[]): number {
  let s = 0;
  for (const x of xs) s += x.cost;
  return s;
}

function maxSize(a: number | undefined, b: number | undefined): number | undefined {
  return a === undefined || b === undefined ? undefined : Math.max(a, b);
}

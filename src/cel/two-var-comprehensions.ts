import type { Environment } from '@marcbachmann/cel-js';
import type {
  EngineEvaluator,
  EngineMacroCall,
  EngineNode,
  EngineScope,
  EngineType,
  EngineTypeChecker,
} from './engine-internals.js';

/**
 * cel-go's two-variable comprehensions (`ext.TwoVarComprehensions`), which kube-apiserver's base
 * environment has from compatibility version 1.32: over a list the variables are the index and
 * the element, over a map the key and the value.
 *
 * - `all(i, v, p)`, `exists(i, v, p)`: like their one-variable forms (a false, respectively true,
 *   predicate wins over an error of another element); `existsOne(i, v, p)`: exactly one, errors
 *   are fatal.
 * - `transformList(i, v, [filter,] t)`: the list of `t` (for the elements passing `filter`).
 * - `transformMap(k, v, [filter,] t)`: a map from the same keys (indices for a list) to `t`.
 * - `transformMapEntry(k, v, [filter,] e)`: the union of the maps `e`; a key twice is an error.
 */

type Checker = EngineTypeChecker;

interface Scope extends EngineScope {
  forkWithVariable(name: string, type: EngineType): Scope;
  setIterValue(value: unknown, ev: EngineEvaluator): Scope;
}

type Kind = 'all' | 'exists' | 'existsOne' | 'transformList' | 'transformMap' | 'transformMapEntry';

interface Macro {
  readonly kind: Kind;
  readonly receiver: EngineNode;
  readonly names: readonly [string, string];
  readonly filter?: EngineNode;
  readonly body: EngineNode;
  types?: readonly [EngineType, EngineType];
  readonly async: boolean;
  typeCheck(checker: Checker, macro: Macro, scope: Scope): EngineType;
  evaluate(ev: EngineEvaluator, macro: Macro, scope: Scope): unknown;
}

const QUANTIFIERS: readonly Kind[] = ['all', 'exists', 'existsOne'];
const TRANSFORMS: readonly Kind[] = ['transformList', 'transformMap', 'transformMapEntry'];

/** Registers the macros on `env`. */
export function registerTwoVarComprehensions(env: Environment): void {
  for (const kind of QUANTIFIERS) register(env, kind, 3);
  for (const kind of TRANSFORMS) {
    register(env, kind, 3);
    register(env, kind, 4);
  }
}

function register(env: Environment, kind: Kind, arity: number): void {
  const returnType = QUANTIFIERS.includes(kind) ? 'bool' : kind === 'transformList' ? 'list<dyn>' : 'map<dyn, dyn>';
  env.registerFunction({
    name: kind,
    receiverType: 'dyn',
    returnType,
    params: Array.from({ length: arity }, (_, i) => ({ name: `a${i}`, type: 'ast' })),
    handler: (call: EngineMacroCall & { readonly receiver: EngineNode }) => expand(kind, call),
  } as never);
}

function simpleName(node: EngineNode | undefined, call: EngineNode): string {
  if (node?.op !== 'id') throw macroError('argument must be a simple name', node ?? call);
  return node.args as string;
}

function macroError(message: string, node: EngineNode): Error {
  const e = new Error(message) as Error & { node?: EngineNode };
  e.node = node;
  return e;
}

function expand(kind: Kind, { ast, args, receiver }: EngineMacroCall & { readonly receiver: EngineNode }): Macro {
  const first = simpleName(args[0], ast);
  const second = simpleName(args[1], ast);
  if (first === second) throw macroError(`duplicate variable name: ${first}`, args[1]);
  const filter = args.length === 4 ? args[2] : undefined;
  const body = args[args.length - 1];
  return {
    kind,
    receiver,
    names: [first, second],
    filter,
    body,
    async: false,
    typeCheck,
    evaluate,
  };
}

function typeCheck(checker: Checker, macro: Macro, scope: Scope): EngineType {
  const range = checker.check(macro.receiver, scope);
  let types: [EngineType, EngineType];
  // The element type of an empty literal (`[]`, `{}`) is a type parameter: the variables are dyn.
  const known = (t: EngineType | undefined) => (t === undefined || t.kind === 'param' ? checker.getType('dyn') : t);
  if (range.kind === 'list') types = [checker.getType('int'), known(range.valueType)];
  else if (range.kind === 'map') types = [known(range.keyType), known(range.valueType)];
  else if (range.kind === 'dyn') types = [range, range];
  else {
    throw checker.createError(
      'invalid_comprehension_range',
      `expression of type '${checker.formatType(range)}' cannot be range of a comprehension (must be list, map, or dynamic)`,
      macro.receiver,
    );
  }
  macro.types = types;
  const inner = scope.forkWithVariable(macro.names[0], types[0]).forkWithVariable(macro.names[1], types[1]);
  const expectBool = (node: EngineNode) => {
    const t = checker.check(node, inner);
    if (t.kind !== 'dyn' && t.name !== 'bool') {
      throw checker.createError(
        'no_matching_overload',
        `expected type 'bool' but found '${checker.formatType(t)}'`,
        node,
      );
    }
  };
  if (macro.filter) expectBool(macro.filter);
  if (QUANTIFIERS.includes(macro.kind)) {
    expectBool(macro.body);
    return checker.boolType;
  }
  const t = checker.check(macro.body, inner);
  switch (macro.kind) {
    case 'transformList':
      return checker.registry.getListType(t);
    case 'transformMap':
      return checker.registry.getMapType(range.kind === 'list' ? types[0] : types[0], t);
    default:
      if (t.kind !== 'map' && t.kind !== 'dyn') {
        throw checker.createError(
          'no_matching_overload',
          `transformMapEntry(k, v, e): e must be a map, found '${checker.formatType(t)}'`,
          macro.body,
        );
      }
      return t.kind === 'map' ? t : checker.registry.getMapType(t, t);
  }
}

/** The (key or index, value) pairs of a list or map value. */
function entriesOf(ev: EngineEvaluator, macro: Macro, range: unknown): [unknown, unknown][] {
  if (Array.isArray(range)) return range.map((v, i) => [BigInt(i), v]);
  if (range instanceof Set) return [...range].map((v, i) => [BigInt(i), v]);
  if (range instanceof Map) return [...range];
  if (typeof range === 'object' && range !== null) {
    // The engine keeps a map literal as an object, its int keys as strings: restore them.
    const intKeys = macro.types?.[0].name === 'int';
    return Object.entries(range).map(([k, v]) => [intKeys && /^-?\d+$/.test(k) ? BigInt(k) : k, v]);
  }
  throw ev.createError(
    'invalid_comprehension_range',
    'expression cannot be range of a comprehension (must be list, map, or dynamic)',
    macro.receiver,
  );
}

/** `f(x)`, or after `x` settles when it is a Promise. */
function then<T, R>(x: T | Promise<T>, f: (v: T) => R | Promise<R>): R | Promise<R> {
  return x instanceof Promise ? x.then(f) : f(x);
}

function evaluate(ev: EngineEvaluator, macro: Macro, scope: Scope): unknown {
  return then(ev.run(macro.receiver, scope), (range) => {
    const entries = entriesOf(ev, macro, range);
    const types = macro.types as readonly [EngineType, EngineType];
    const scopeOf = ([k, v]: [unknown, unknown]) =>
      scope
        .forkWithVariable(macro.names[0], types[0])
        .setIterValue(k, ev)
        .forkWithVariable(macro.names[1], types[1])
        .setIterValue(v, ev);
    return QUANTIFIERS.includes(macro.kind)
      ? quantify(ev, macro, entries, scopeOf)
      : transform(ev, macro, entries, scopeOf);
  });
}

function predicate(ev: EngineEvaluator, node: EngineNode, value: unknown): boolean {
  if (typeof value !== 'boolean') throw ev.createError('invalid_predicate', 'no such overload', node);
  return value;
}

function quantify(
  ev: EngineEvaluator,
  macro: Macro,
  entries: readonly [unknown, unknown][],
  scopeOf: (e: [unknown, unknown]) => Scope,
): unknown {
  const { kind, body } = macro;
  let error: unknown;
  let count = 0;
  const loop = (i: number): unknown => {
    for (; i < entries.length; i++) {
      let r: unknown;
      try {
        r = ev.run(body, scopeOf(entries[i] as [unknown, unknown]));
      } catch (e) {
        if (kind === 'existsOne') throw e;
        error ??= e;
        continue;
      }
      if (r instanceof Promise) {
        const next = i + 1;
        return r.then(
          (v) => (step(v) ? finish(true) : loop(next)),
          (e) => {
            if (kind === 'existsOne') throw e;
            error ??= e;
            return loop(next);
          },
        );
      }
      if (step(r)) return finish(true);
    }
    return finish(false);
  };
  /** Whether the result is decided by `r`. */
  const step = (r: unknown): boolean => {
    if (typeof r !== 'boolean') {
      if (kind === 'existsOne') predicate(ev, body, r);
      error ??= ev.createError('invalid_predicate', 'no such overload', body);
      return false;
    }
    if (kind === 'all') return r === false;
    if (kind === 'exists') return r === true;
    if (r) count++;
    return false;
  };
  const finish = (decided: boolean): boolean => {
    if (decided) return kind === 'exists';
    if (error !== undefined) throw error;
    return kind === 'all' ? true : kind === 'exists' ? false : count === 1;
  };
  return loop(0);
}

function transform(
  ev: EngineEvaluator,
  macro: Macro,
  entries: readonly [unknown, unknown][],
  scopeOf: (e: [unknown, unknown]) => Scope,
): unknown {
  const { kind, filter, body } = macro;
  const list: unknown[] = [];
  const map = new Map<unknown, unknown>();
  const add = (entry: [unknown, unknown], value: unknown) => {
    if (kind === 'transformList') list.push(value);
    else if (kind === 'transformMap') map.set(entry[0], value);
    else {
      const pairs = value instanceof Map ? [...value] : Object.entries(value as object);
      for (const [k, v] of pairs) {
        if (map.has(k)) throw ev.createError('duplicate_key', `insert failed: key ${String(k)} already exists`, body);
        map.set(k, v);
      }
    }
  };
  const loop = (i: number): unknown => {
    for (; i < entries.length; i++) {
      const entry = entries[i] as [unknown, unknown];
      const inner = scopeOf(entry);
      const one = then(filter ? ev.run(filter, inner) : true, (keep) => {
        if (!predicate(ev, filter ?? body, keep)) return undefined;
        return then(ev.run(body, inner), (v) => add(entry, v));
      });
      if (one instanceof Promise) {
        const next = i + 1;
        return one.then(() => loop(next));
      }
    }
    return kind === 'transformList' ? list : map;
  };
  return loop(0);
}

import { Environment } from '@marcbachmann/cel-js';
import type {
  EngineChecker,
  EngineEvaluator,
  EngineMacroCall,
  EngineOperator,
  EngineRegistry,
} from './engine-internals.js';

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

const PROBE = 'orch_internal_registry_probe';
const PATCHED: unique symbol = Symbol('orch.cel.patchedOperator');

type Handler = EngineOperator['handler'];
type PatchedHandler = Handler & { [PATCHED]?: true };

/**
 * Installs the set and map list behaviour into environments. The engine has no hook for it: its
 * `list<V> == list<V>` and `list<V> + list<V>` overloads cannot be registered twice, and a
 * second overload for a concrete list type would clash with them whenever one side is `[]` or
 * dynamic. So each environment's own overload table gets those two (and `!=`) replaced by
 * wrappers that handle marked lists and hand every other list to the engine's handler. The
 * table is reached through a macro that captures the parser's registry. One per environment set.
 */
export class ListOperatorInstaller {
  #captured: EngineRegistry | undefined;
  #globalPlus: unknown;

  /** Declares the registry probe; call once on the root environment, before any clone. */
  prepare(env: Environment): void {
    env.registerFunction({
      name: PROBE,
      returnType: 'bool',
      params: [{ name: 'x', type: 'ast' }],
      // Not callable: checking a call of it fails as an undeclared function would.
      handler: ({ ast, parser }: EngineMacroCall) => {
        this.#captured = parser.registry;
        return {
          typeCheck(checker: EngineChecker): never {
            throw checker.createError('unknown_variable', `Unknown variable: ${PROBE}`, ast);
          },
          evaluate(evaluator: EngineEvaluator): never {
            throw evaluator.createError('unknown_variable', `Unknown variable: ${PROBE}`, ast);
          },
        };
      },
    });
  }

  /**
   * Replaces the list overloads of `env` (which must descend from a prepared environment and be
   * fully registered: the engine rebuilds an environment's overload table when an operator is
   * added, which would drop the replacement). Idempotent.
   */
  install(env: Environment): void {
    const registry = this.#registryOf(env);
    // Environments that never registered an operator share the engine's process-wide table;
    // replacing an overload there would change every other user of the engine.
    this.#globalPlus ??= this.#registryOf(this.#probed(new Environment())).operatorCandidates('+');
    if (registry.operatorCandidates('+') === this.#globalPlus) {
      throw new Error('CEL environment has no operator table of its own: register an operator before installing');
    }
    replace(registry, '==', 'list<V> == list<V>: bool', (engine) => (a, b, node, ev) => {
      const s = semanticsOf(a);
      return s ? listEqual(s, a as unknown[], b) : engine(a, b, node, ev);
    });
    replace(registry, '!=', 'list<V> != list<V>: bool', (engine) => (a, b, node, ev) => {
      const s = semanticsOf(a);
      return s ? !listEqual(s, a as unknown[], b) : engine(a, b, node, ev);
    });
    replace(registry, '+', 'list<V> + list<V>: list<V>', (engine) => (a, b, node, ev) => {
      const s = semanticsOf(a);
      return s ? listAdd(s, a as unknown[], b as Iterable<unknown>) : engine(a, b, node, ev);
    });
  }

  #probed(env: Environment): Environment {
    this.prepare(env);
    return env;
  }

  #registryOf(env: Environment): EngineRegistry {
    this.#captured = undefined;
    env.parse(`${PROBE}(0)`);
    const registry = this.#captured as EngineRegistry | undefined;
    this.#captured = undefined;
    if (!registry || typeof registry.operatorCandidates !== 'function') {
      throw new Error('CEL engine internals changed: cannot reach the operator registry');
    }
    return registry;
  }
}

function replace(registry: EngineRegistry, operator: string, signature: string, wrap: (engine: Handler) => Handler) {
  const declarations = registry.operatorCandidates(operator).declarations;
  const i = declarations.findIndex((d) => d.signature === signature);
  if (i < 0) throw new Error(`CEL engine internals changed: no '${signature}' overload`);
  const declaration = declarations[i];
  if ((declaration.handler as PatchedHandler)[PATCHED]) return;
  const handler: PatchedHandler = wrap(declaration.handler);
  handler[PATCHED] = true;
  // Same prototype and fields as the engine's frozen declaration; only the handler differs.
  const copy = Object.assign(Object.create(Object.getPrototypeOf(declaration)), declaration, { handler });
  declarations[i] = Object.freeze(copy);
}

import { Environment } from '@marcbachmann/cel-js';
import type {
  EngineCandidates,
  EngineChecker,
  EngineEvaluator,
  EngineHandler,
  EngineMacroCall,
  EngineOverload,
  EngineRegistry,
} from './engine-internals.js';

/**
 * Replaces the implementation of a built-in overload of the engine, in environments of ours only.
 * The engine refuses a second registration of a built-in signature and offers no hook to change
 * one, but each environment keeps its own table of overload declarations once anything is
 * registered in it; a patch swaps the declaration in that table for a copy with a wrapped handler.
 */
export type EnginePatch =
  | {
      readonly table: 'operator';
      /** `==`, `+`, `-_` (unary minus), ... */
      readonly operator: string;
      /** The engine's signature of the overload, e.g. `list<V> + list<V>: list<V>`. */
      readonly signature: string;
      readonly wrap: (engine: EngineHandler) => EngineHandler;
      /**
       * The signature of another overload of the operator whose return type this one takes
       * instead of its own (an engine declaration with the wrong result type).
       */
      readonly returnTypeOf?: string;
    }
  | {
      readonly table: 'function';
      readonly name: string;
      readonly receiver: boolean;
      readonly arity: number;
      /** e.g. `int(double): int`. */
      readonly signature: string;
      readonly wrap: (engine: EngineHandler) => EngineHandler;
    };

const PROBE = 'orch_internal_registry_probe';
const PATCHED: unique symbol = Symbol('orch.cel.patched');

type PatchedHandler = EngineHandler & { [PATCHED]?: true };

/**
 * Applies patches to environments. The registry is reached through a macro that captures the
 * parser's registry when an expression calling it is parsed. One per environment set.
 */
export class EnginePatcher {
  #captured: EngineRegistry | undefined;
  #global: EngineRegistry | undefined;

  constructor(private readonly patches: readonly EnginePatch[]) {}

  /** Declares the registry probe; call once on the root environment, before registering anything else. */
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
   * Applies the patches to `env`, which must descend from a prepared environment and have all
   * its registrations done: registering an overload makes the engine rebuild the environment's
   * table, dropping the patches. Idempotent.
   */
  install(env: Environment): void {
    const registry = this.#registryOf(env);
    this.#global ??= this.#registryOf(this.#prepared(new Environment()));
    for (const patch of this.patches) {
      if (patch.table === 'function') {
        // Function tables are always the environment's own: `prepare` registered the probe.
        replace(registry.functionCandidates(patch.receiver, patch.name, patch.arity), patch.signature, patch.wrap);
        continue;
      }
      // An environment that never registered an operator shares the engine's process-wide
      // table; a patch there would change every other user of the engine.
      const table = registry.operatorCandidates(patch.operator);
      if (table === this.#global.operatorCandidates(patch.operator)) {
        throw new Error("CEL environment shares the engine's operator table: register an operator first");
      }
      replace(table, patch.signature, patch.wrap, patch.returnTypeOf);
    }
  }

  #prepared(env: Environment): Environment {
    this.prepare(env);
    return env;
  }

  #registryOf(env: Environment): EngineRegistry {
    this.#captured = undefined;
    env.parse(`${PROBE}(0)`);
    const registry = this.#captured as EngineRegistry | undefined;
    this.#captured = undefined;
    if (typeof registry?.operatorCandidates !== 'function' || typeof registry.functionCandidates !== 'function') {
      throw new Error('CEL engine internals changed: cannot reach the overload registry');
    }
    return registry;
  }
}

function replace(
  table: EngineCandidates,
  signature: string,
  wrap: (engine: EngineHandler) => EngineHandler,
  returnTypeOf?: string,
): void {
  const declarations = table.declarations;
  const i = declarations.findIndex((d) => d.signature === signature);
  if (i < 0) throw new Error(`CEL engine internals changed: no '${signature}' overload`);
  const declaration = declarations[i];
  if ((declaration.handler as PatchedHandler)[PATCHED]) return;
  const handler: PatchedHandler = wrap(declaration.handler);
  handler[PATCHED] = true;
  const changes: Record<string, unknown> = { handler };
  if (returnTypeOf !== undefined) {
    const other = declarations.find((d) => d.signature === returnTypeOf);
    if (other === undefined) throw new Error(`CEL engine internals changed: no '${returnTypeOf}' overload`);
    const returnType = (other as EngineOverload & { readonly returnType: unknown }).returnType;
    // (The signature stays the engine's: patches find the declaration by it.)
    changes.returnType = returnType;
  }
  // Same prototype and fields as the engine's frozen declaration; only the handler (and return type) differ.
  const copy = Object.freeze(Object.assign(Object.create(Object.getPrototypeOf(declaration)), declaration, changes));
  declarations[i] = copy;
  // A macro is also found through the table's `macro` (the parser expands it from there).
  const candidates = table as EngineCandidates & { macro?: unknown };
  if (candidates.macro === declaration) candidates.macro = copy;
}

import { Optional } from '@marcbachmann/cel-js';
import type {
  EngineEvaluator,
  EngineMacroCall,
  EngineNode,
  EngineScope,
  EngineType,
  EngineTypeChecker,
} from './engine-internals.js';
import type { EnginePatch } from './engine-patches.js';
import { SchemaObject } from './schema-object.js';

/**
 * `has(e.f)` where `e` is any expression (`has(self.items[0].name)`, `has({'a': 1}.a)`), as
 * cel-go allows; the engine accepts only a chain of fields from a variable, which it keeps
 * handling. `e` must be a map (`f` is a key present), an object (`f` is set; a property holding
 * `null` is not) or dynamic; or optional (`has(m.?a.b)`, `has(optional.of(m).c)`): false when
 * none, else the test on the value. A chain with `.?` is always this macro's: the engine's
 * `has()` answers on the optional itself.
 */

type Checker = EngineTypeChecker;

/** The engine's own `has()` macro (a chain of fields from a variable). */
interface EngineMacro {
  typeCheck(checker: Checker, macro: EngineMacro, scope: EngineScope): EngineType;
  evaluate(ev: EngineEvaluator, macro: EngineMacro, scope: EngineScope): unknown;
}

interface PresenceMacro {
  readonly operand: EngineNode;
  /** The selection `operand.field`; its field name is read when evaluated (a quoted name is put back after parsing). */
  readonly select: EngineNode;
  readonly async: boolean;
  typeCheck(checker: Checker, macro: PresenceMacro, scope: EngineScope): EngineType;
  evaluate(ev: EngineEvaluator, macro: PresenceMacro, scope: EngineScope): unknown;
}

/** Whether the engine's own `has()` takes the argument: fields selected from a variable. */
function engineHandles(arg: EngineNode | undefined): boolean {
  let node = arg;
  while (node?.op === '.') node = (node.args as readonly EngineNode[])[0];
  return node?.op === 'id';
}

/**
 * cel-go's lookup of the tested field: on an object type (or an optional of one) with declared
 * fields, an undeclared field is a compile error (`undefined field`).
 */
function checkField(
  checker: Checker,
  macro: { readonly select: EngineNode },
  scope: EngineScope,
  type: EngineType,
): void {
  const target = type.kind === 'optional' ? type.valueType : type;
  if (target?.kind === 'message') checker.checkAccessOnType(macro.select, scope, target, false);
}

function typeCheck(checker: Checker, macro: PresenceMacro, scope: EngineScope): EngineType {
  const type = checker.check(macro.operand, scope);
  checkField(checker, macro, scope, type);
  const kind = type.kind === 'optional' ? (type.valueType?.kind ?? 'dyn') : type.kind;
  if (kind !== 'map' && kind !== 'message' && kind !== 'dyn' && kind !== 'param') {
    throw checker.createError(
      'invalid_macro_argument',
      `type '${checker.formatType(type)}' does not support field selection`,
      macro.select,
    );
  }
  return checker.boolType;
}

function present(ev: EngineEvaluator, macro: PresenceMacro, value: unknown): boolean {
  const field = (macro.select.args as readonly unknown[])[1] as string;
  if (value instanceof Optional) return value.hasValue() && present(ev, macro, value.value());
  if (value instanceof Map) return value.get(field) !== undefined;
  if (value instanceof SchemaObject) return (value as unknown as Record<string, unknown>)[field] !== undefined;
  if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
    const proto = Object.getPrototypeOf(value);
    if (proto === Object.prototype || proto === null) return Object.hasOwn(value, field);
  }
  throw ev.createError('no_such_overload', 'no such overload', macro.select);
}

function evaluate(ev: EngineEvaluator, macro: PresenceMacro, scope: EngineScope): unknown {
  const value = ev.run(macro.operand, scope);
  return value instanceof Promise ? value.then((v) => present(ev, macro, v)) : present(ev, macro, value);
}

/**
 * The engine's macro for a chain of fields from a variable, checked as cel-go checks it: the
 * tested field must be declared on an object type; and when the chain passes through an
 * optional value (`has(oldSelf.spec.x)` with an optional `oldSelf`, a macro variable holding
 * optionals) this module's evaluation, as the engine's answers on the optional itself.
 */
class ChainPresence {
  /** Whether the chain passes through an optional value (this module evaluates it). */
  own = false;
  /** Read and written by the engine's macro. */
  readonly args: readonly EngineNode[];
  macroHasProps: unknown = undefined;
  readonly async = false;

  constructor(
    readonly engine: EngineMacro & { readonly args: readonly EngineNode[] },
    readonly operand: EngineNode,
    readonly select: EngineNode,
  ) {
    this.args = engine.args;
  }

  typeCheck(checker: Checker, macro: ChainPresence, scope: EngineScope): EngineType {
    const type = checker.check(macro.operand, scope);
    if (type.kind !== 'optional') {
      checkField(checker, macro, scope, type);
      return macro.engine.typeCheck(checker, macro as unknown as EngineMacro, scope);
    }
    macro.own = true;
    return typeCheck(checker, macro as unknown as PresenceMacro, scope);
  }

  evaluate(ev: EngineEvaluator, macro: ChainPresence, scope: EngineScope): unknown {
    if (macro.own) return evaluate(ev, macro as unknown as PresenceMacro, scope);
    return macro.engine.evaluate(ev, macro as unknown as EngineMacro, scope);
  }
}

/** Extends the engine's `has()` macro to any operand. */
export const PRESENCE_PATCHES: readonly EnginePatch[] = [
  {
    table: 'function',
    name: 'has',
    receiver: false,
    arity: 1,
    signature: 'has(ast): bool',
    wrap: (engine) => (call) => {
      const { args } = call as EngineMacroCall;
      const select = args[0];
      if (select?.op !== '.') return engine(call);
      const operand = (select.args as readonly EngineNode[])[0];
      if (!engineHandles(select)) {
        const macro: PresenceMacro = { operand, select, async: false, typeCheck, evaluate };
        return macro;
      }
      return new ChainPresence(engine(call) as ChainPresence['engine'], operand, select);
    },
  },
];

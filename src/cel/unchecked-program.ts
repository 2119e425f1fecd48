import { forEachNode } from './ast-walk.js';
import type { CelEnvironment } from './cel-environment.js';
import { compileErrorFrom } from './engine-errors.js';
import type {
  EngineChecker,
  EngineEvaluator,
  EngineNode,
  EngineScope,
  EngineType,
  EngineTypeChecker,
} from './engine-internals.js';
import { celEquals } from './library/cel-values.js';
import { CelProgram } from './program.js';
import { parseSource } from './source-rewrite.js';

/**
 * Evaluation of a parsed expression that was never type-checked, as cel-go's `Program` of an
 * unchecked AST runs it (kube-apiserver always type-checks; the conformance suite also runs
 * unchecked expressions). The engine type-checks every expression before it evaluates it, so an
 * expression the checker would reject cannot run at all; here each node whose check fails instead
 * fails when (and only if) it is evaluated, and the operators cel-go defines on any operand
 * follow cel-go at run time:
 *
 * - `a || b`, `a && b`: either operand decides when it is the absorbing value (`true`, `false`),
 *   whatever the other is (an error, a non-bool, an unbound variable); otherwise both must be bool;
 * - `c ? x : y`: the branches need not have one type;
 * - `x == y`, `x != y` of operands with no common overload: CEL equality (`1.0 == 1`).
 */

interface Meta {
  readonly check: (chk: EngineChecker, node: EngineNode, scope: EngineScope) => EngineType;
  readonly evaluate: (ev: EngineEvaluator, node: EngineNode, scope: EngineScope) => unknown;
  readonly macro?: {
    typeCheck(chk: EngineChecker, macro: unknown, scope: EngineScope): EngineType;
    evaluate(ev: EngineEvaluator, macro: unknown, scope: EngineScope): unknown;
  };
  readonly alternate?: EngineNode;
}

type Checker = EngineTypeChecker;

interface LenientMacro {
  readonly async: false;
  error?: { code: string; message: string };
  typeCheck(chk: Checker, macro: LenientMacro, scope: EngineScope): EngineType;
  evaluate(ev: EngineEvaluator, macro: LenientMacro, scope: EngineScope): unknown;
}

type Unifiable = EngineType & { unify(registry: unknown, other: EngineType): EngineType | undefined };

function tryRun(ev: EngineEvaluator, node: EngineNode, scope: EngineScope): unknown {
  try {
    return ev.run(node, scope);
  } catch (e) {
    return e instanceof Error ? e : new Error(String(e));
  }
}

function logical(node: EngineNode, absorbing: boolean): LenientMacro {
  const [left, right] = node.args as [EngineNode, EngineNode];
  return {
    async: false,
    typeCheck(chk, _macro, scope) {
      chk.check(left, scope);
      chk.check(right, scope);
      return chk.boolType;
    },
    evaluate(ev, _macro, scope) {
      const l = tryRun(ev, left, scope);
      if (l === absorbing) return l;
      const r = tryRun(ev, right, scope);
      if (r === absorbing) return r;
      if (typeof l === 'boolean' && typeof r === 'boolean') return !absorbing;
      if (l instanceof Error) throw l;
      if (r instanceof Error) throw r;
      throw ev.createError('no_such_overload', 'no such overload', node);
    },
  };
}

function ternary(node: EngineNode): LenientMacro {
  const [condition, yes, no] = node.args as [EngineNode, EngineNode, EngineNode];
  return {
    async: false,
    typeCheck(chk, _macro, scope) {
      chk.check(condition, scope);
      const a = chk.check(yes, scope);
      const b = chk.check(no, scope);
      return (a as Unifiable).unify(chk.registry, b) ?? chk.getType('dyn');
    },
    evaluate(ev, _macro, scope) {
      const c = ev.run(condition, scope);
      if (c === true) return ev.run(yes, scope);
      if (c === false) return ev.run(no, scope);
      throw ev.createError('no_such_overload', 'no such overload', node);
    },
  };
}

/** Any other node: checked as the engine checks it; a failed check becomes an error when evaluated. */
function deferred(node: EngineNode, meta: Meta): LenientMacro {
  const own = meta.macro;
  const check = own
    ? (chk: EngineChecker, scope: EngineScope) => own.typeCheck(chk, own, scope)
    : (chk: EngineChecker, scope: EngineScope) => meta.check(chk, node, scope);
  const run = own
    ? (ev: EngineEvaluator, scope: EngineScope) => own.evaluate(ev, own, scope)
    : (ev: EngineEvaluator, scope: EngineScope) => meta.evaluate(ev, node, scope);
  const equality = node.op === '==' || node.op === '!=';
  return {
    async: false,
    typeCheck(chk, macro, scope) {
      try {
        return check(chk, scope);
      } catch (e) {
        if (equality) {
          macro.error = { code: 'equality', message: '' };
          return chk.boolType;
        }
        const err = e as { code?: string; summary?: string; message?: string };
        macro.error = { code: err.code ?? 'internal', message: err.summary ?? err.message ?? String(e) };
        return chk.getType('dyn');
      }
    },
    evaluate(ev, macro, scope) {
      const error = macro.error;
      if (error === undefined) return run(ev, scope);
      if (error.code === 'equality') {
        const [l, r] = node.args as [EngineNode, EngineNode];
        return celEquals(ev.run(l, scope), ev.run(r, scope)) === (node.op === '==');
      }
      throw ev.createError(error.code, error.message, node);
    },
  };
}

/**
 * Parses `expression` in `env` without type-checking it (see the module comment). Throws a
 * `CelCompileError` for a syntax error.
 */
export function parseUnchecked(expression: string, env: CelEnvironment): CelProgram {
  let parsed: ReturnType<typeof parseSource>;
  try {
    parsed = parseSource(env.engine, expression, env.optionalFreeVariables);
  } catch (e) {
    throw compileErrorFrom(expression, e);
  }
  forEachNode(parsed.ast as unknown as EngineNode, (node) => {
    const meta = (node as EngineNode & { readonly meta: Meta }).meta;
    if (meta.alternate) return;
    const macro =
      node.op === '||'
        ? logical(node, true)
        : node.op === '&&'
          ? logical(node, false)
          : node.op === '?:'
            ? ternary(node)
            : deferred(node, meta);
    node.setMeta('macro' as never, macro as never);
    node.setMeta('async', false);
  });
  return new CelProgram(expression, env, parsed);
}

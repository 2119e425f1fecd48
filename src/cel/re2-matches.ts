import type { Environment } from '@marcbachmann/cel-js';
import { RE2JS } from 're2js';
import type {
  EngineChecker,
  EngineEvaluator,
  EngineMacro,
  EngineMacroCall,
  EngineNode,
  EngineScope,
  EngineType,
} from './engine-internals.js';

/**
 * `matches` on RE2 (linear time), as cel-go runs it, instead of the engine's built-in
 * `string.matches(string)`, which runs JavaScript's backtracking `RegExp` (`^(a+)+$` against 30
 * `a`s and a `!` takes seconds there).
 *
 * The engine refuses a second `string.matches` overload, but it expands every `x.matches(y)` it
 * parses through a macro when one is declared under that name and arity, whatever the receiver
 * type of the declaration. So the macro is declared on a receiver type nothing else has, and it
 * checks the real receiver itself: a string (or dyn), as the built-in would. The global form
 * `matches(string, string)` of the CEL standard library is declared the same way.
 *
 * A literal pattern is compiled once, when the expression is checked, and an invalid one fails
 * the check (`invalid matches argument`), as kube-apiserver's regex-literal validation does; a
 * computed pattern is compiled at each evaluation and an invalid one fails that evaluation.
 */
export function registerRe2Matches(env: Environment): void {
  class MatchesReceiver {}
  env.registerType('orch.internal.MatchesReceiver', MatchesReceiver);
  env.registerFunction({
    name: 'matches',
    receiverType: 'orch.internal.MatchesReceiver',
    returnType: 'bool',
    params: [{ name: 'pattern', type: 'ast' }],
    handler: ({ ast, args, receiver }: EngineMacroCall) => matchesMacro(ast, receiver!, args[0], true),
  });
  env.registerFunction({
    name: 'matches',
    returnType: 'bool',
    params: [
      { name: 'text', type: 'ast' },
      { name: 'pattern', type: 'ast' },
    ],
    handler: ({ ast, args }: EngineMacroCall) => matchesMacro(ast, args[0], args[1], false),
  });
}

interface MatchesMacro extends EngineMacro {
  readonly call: EngineNode;
  /** The compiled pattern when it is a literal. */
  literal?: RE2JS;
  /** The last computed pattern and its compilation: a pattern from a variable rarely changes. */
  last?: { readonly source: string; readonly re: RE2JS };
}

function matchesMacro(call: EngineNode, text: EngineNode, pattern: EngineNode, member: boolean): MatchesMacro {
  return {
    call,
    typeCheck(checker: EngineChecker, macro: MatchesMacro, scope: EngineScope): EngineType {
      const textType = checker.check(text, scope);
      const patternType = checker.check(pattern, scope);
      if (!isStringOrDyn(textType) || !isStringOrDyn(patternType)) {
        const signature = member
          ? `${textType.name}.matches(${patternType.name})`
          : `matches(${textType.name}, ${patternType.name})`;
        throw checker.createError('no_matching_overload', `found no matching overload for '${signature}'`, call);
      }
      if (pattern.op === 'value' && typeof pattern.args === 'string') {
        try {
          macro.literal = RE2JS.compile(pattern.args);
        } catch {
          throw checker.createError('invalid_argument', 'invalid matches argument', pattern);
        }
      }
      // Synchronous unless an operand may be (an async library function below it).
      if (!text.maybeAsync && !pattern.maybeAsync) call.setMeta('async', false);
      return checker.boolType;
    },
    evaluate(evaluator: EngineEvaluator, macro: MatchesMacro, scope: EngineScope): unknown {
      const s = evaluator.run(text, scope);
      const p = macro.literal ?? evaluator.run(pattern, scope);
      if (s instanceof Promise || p instanceof Promise) {
        return Promise.all([s, p]).then(([rs, rp]) => match(evaluator, macro, rs, rp));
      }
      return match(evaluator, macro, s, p);
    },
  };
}

function isStringOrDyn(t: EngineType): boolean {
  return t.kind === 'dyn' || t.name === 'string';
}

function match(evaluator: EngineEvaluator, macro: MatchesMacro, text: unknown, pattern: unknown): boolean {
  if (typeof text !== 'string' || !(pattern instanceof RE2JS || typeof pattern === 'string')) {
    throw evaluator.createError('no_matching_overload', 'no such overload', macro.call);
  }
  if (pattern instanceof RE2JS) return pattern.test(text);
  if (macro.last?.source !== pattern) {
    try {
      macro.last = { source: pattern, re: RE2JS.compile(pattern) };
    } catch (e) {
      throw evaluator.createError('invalid_argument', (e as Error).message, macro.call);
    }
  }
  return macro.last.re.test(text);
}

/**
 * The parts of @marcbachmann/cel-js 8 this layer reaches that its type declarations leave
 * untyped: parsed nodes with their checked types, the checker and evaluator handed to macros,
 * and the per-environment registry of operator overloads. Each use is guarded where it is made
 * (a missing piece throws when an environment is built, never during evaluation).
 */

/** A checked type (`TypeDeclaration`): `kind` is primitive, list, map, optional, dyn, param or message. */
export interface EngineType {
  readonly kind: string;
  readonly name: string;
  readonly keyType?: EngineType;
  readonly valueType?: EngineType;
}

/** A parsed node. `start`/`end` are UTF-16 offsets into `input`; `pos` is where the engine anchors errors. */
export interface EngineNode {
  readonly op: string;
  readonly args: unknown;
  readonly start: number;
  readonly end: number;
  readonly pos: number;
  readonly input: string;
  /** Set once the node type-checked. */
  readonly checkedType?: EngineType;
  /** Set by the checker on call nodes: the overloads it chose among. */
  readonly candidates?: { readonly declarations: readonly unknown[] };
  /** Whether evaluating the node may return a Promise (an async function below it). */
  readonly maybeAsync: boolean;
  setMeta(key: 'async', value: boolean): EngineNode;
}

/** An error the engine raises: ParseError, TypeError or EvaluationError. */
export interface EngineError extends Error {
  readonly code?: string;
  readonly summary?: string;
  readonly node?: EngineNode;
  readonly range?: { readonly start: number; readonly end: number };
}

/** Opaque scope (variables, iteration variables) threaded through checks and evaluations. */
export type EngineScope = object;

/** The type checker as a macro sees it. */
export interface EngineChecker {
  check(node: EngineNode, scope: EngineScope): EngineType;
  createError(code: string, message: string, node?: EngineNode): Error;
  readonly boolType: EngineType;
}

/**
 * The type checker with the members of the engine's checker our extensions use beyond the macro
 * contract (the engine has them; its typings do not declare them).
 */
export interface EngineTypeChecker extends EngineChecker {
  getType(name: string): EngineType;
  formatType(type: EngineType): string;
  readonly dynType: EngineType;
  readonly registry: {
    getListType(t: EngineType): EngineType;
    getMapType(k: EngineType, v: EngineType): EngineType;
    getOptionalType(t: EngineType): EngineType;
  };
  checkAccessOnType(node: EngineNode, scope: EngineScope, type: EngineType, allowMissing: boolean): EngineType;
}

/** The evaluator as a macro sees it. */
export interface EngineEvaluator {
  run(node: EngineNode, scope: EngineScope): unknown;
  createError(code: string, message: string, node?: EngineNode): Error;
}

/** A macro expansion: what a function declared with `ast` parameters returns at parse time. */
export interface EngineMacro {
  /**
   * `false` keeps the engine on its synchronous fast path; when absent the call counts as
   * possibly async until its type check says otherwise (`setMeta('async', false)`).
   */
  readonly async?: boolean;
  typeCheck(checker: EngineChecker, macro: this, scope: EngineScope): EngineType;
  evaluate(evaluator: EngineEvaluator, macro: this, scope: EngineScope): unknown;
}

/** What a macro's expander receives from the parser. */
export interface EngineMacroCall {
  readonly ast: EngineNode;
  readonly args: readonly EngineNode[];
  readonly receiver: EngineNode | null;
  readonly parser: { readonly registry: EngineRegistry };
}

/** An overload's implementation; `this` is the evaluator for functions. */
export type EngineHandler = (...args: unknown[]) => unknown;

/** One operator or function overload (`OperatorDeclaration`/`FunctionDeclaration`, frozen). */
export interface EngineOverload {
  readonly signature: string;
  readonly handler: EngineHandler;
}

/** The overloads of one operator, or of one function name, receiver kind and arity, in one environment. */
export interface EngineCandidates {
  readonly declarations: EngineOverload[];
}

/** An environment's registry of types, variables and overloads. */
export interface EngineRegistry {
  operatorCandidates(operator: string): EngineCandidates;
  functionCandidates(receiver: boolean, name: string, arity: number): EngineCandidates;
}

import { TypeError as EngineTypeError, type ParseResult } from '@marcbachmann/cel-js';
import { forEachNode } from './ast-walk.js';
import type { CelEnvironment } from './cel-environment.js';
import { compileErrorFrom, evaluationErrorFrom, undeclaredReference } from './engine-errors.js';
import type { EngineNode } from './engine-internals.js';
import { specializeInputs } from './input-access.js';
import { fromCel } from './json-values.js';
import { parseSource } from './source-rewrite.js';

/**
 * A compiled (parsed and type-checked) expression, bound to its environment. Immutable once
 * built; evaluations may run concurrently (they share nothing but the program).
 */
export class CelProgram {
  /**
   * The declared variables the expression reads that are converted before it runs, with their
   * conversions; the others it reads are converted as read (see input-access.ts).
   */
  readonly inputs: readonly (readonly [name: string, convert: (value: unknown) => unknown])[];
  /** The variables it reads that have a value when absent (or `null`) in an activation. */
  readonly absent: readonly (readonly [name: string, value: unknown])[];

  constructor(
    readonly expression: string,
    readonly environment: CelEnvironment,
    /** The engine's parsed (and, through `compile`, checked) expression; callable with engine values. */
    readonly parsed: ParseResult,
  ) {
    const { read, lazy } = specializeInputs(this.ast, environment);
    this.inputs = [...environment.variables]
      .filter(([name]) => read.has(name) && !lazy.has(name))
      .map(([name, convert]) => [name, convert] as const);
    this.absent = [...environment.absentValues].filter(([name]) => read.has(name));
  }

  /** The checked syntax tree: nodes with `op`, `args`, source offsets and `checkedType` (for a cost estimator). */
  get ast(): EngineNode {
    return this.parsed.ast as unknown as EngineNode;
  }

  /** The result type the checker inferred, in the engine's spelling (`bool`, `list<string>`); `dyn` unchecked. */
  get outputType(): string {
    return this.ast.checkedType?.name ?? 'dyn';
  }
}

/** Variable values of one evaluation, as decoded JSON (or engine values for `native` variables). */
export type CelActivation = Readonly<Record<string, unknown>>;

/**
 * Compiles `expression` in `env`: parses and type-checks it, or throws a `CelCompileError` with
 * cel-go's message and position. Successful compilations are cached per (environment, expression)
 * in the environment set, so compiling the same expression again is a lookup.
 */
export function compile(expression: string, env: CelEnvironment): CelProgram {
  const cached = env.cache.get(env.key, expression);
  if (cached) return cached;
  let parsed: ParseResult;
  try {
    parsed = parseSource(env.engine, expression, env.optionalFreeVariables);
  } catch (e) {
    throw compileErrorFrom(expression, e);
  }
  if (!env.engine.opts.enableOptionalTypes && expression.includes('optional')) {
    rejectOptionalNamespace(expression, parsed.ast as unknown as EngineNode);
  }
  const checked = parsed.check();
  if (!checked.valid) throw compileErrorFrom(expression, checked.error);

  let program: CelProgram;
  try {
    program = new CelProgram(expression, env, parsed);
  } catch (e) {
    // A literal that is not homogeneous (found while the program is specialized).
    if (e instanceof EngineTypeError) throw compileErrorFrom(expression, e);
    throw e;
  }
  env.cache.set(env.key, expression, program);
  return program;
}

/**
 * Without optional types the engine still declares the `optional` namespace (its functions then
 * misbehave); cel-go does not declare it at all, so neither do we.
 */
function rejectOptionalNamespace(expression: string, ast: EngineNode): void {
  forEachNode(ast, (node) => {
    if (node.op === 'id' && node.args === 'optional') throw undeclaredReference(expression, node.start, 'optional');
  });
}

/**
 * Variable values converted once for several evaluations in one environment: kube-apiserver
 * builds one activation per object and evaluates every rule of the object against it, so the
 * conversion (and the containers read lazily from a schema-typed object) is shared. The values
 * must not change while it is in use.
 */
export class PreparedActivation {
  readonly values: Readonly<Record<string, unknown>>;

  constructor(
    readonly environment: CelEnvironment,
    activation: CelActivation,
  ) {
    const values: Record<string, unknown> = {};
    try {
      for (const [name, convert] of environment.variables) {
        const v = activation[name];
        if (v !== undefined) values[name] = v === null ? null : convert(v);
      }
      for (const [name, absent] of environment.absentValues) if (activation[name] == null) values[name] = absent;
    } catch (e) {
      throw evaluationErrorFrom(e);
    }
    this.values = values;
  }
}

/**
 * Evaluates `program` with the declared variables taken from `activation` (other keys are
 * ignored; a variable left out fails the evaluation only if the expression reads it). Values
 * are converted by their declared type on the way in (an integer property becomes an `int`), and
 * the result on the way out (see `fromCel`); a {@link PreparedActivation} of the program's
 * environment skips the way in. Throws a `CelEvaluationError` on failure. The result is a Promise
 * only when the environment has an asynchronous library function and the expression calls it.
 */
export function evaluate(program: CelProgram, activation: CelActivation | PreparedActivation): unknown {
  const result = evaluateToCel(program, activation);
  if (typeof result === 'boolean' || typeof result === 'string') return result;
  if (result instanceof Promise) return result.then(fromCel);
  return fromCel(result);
}

/**
 * {@link evaluate} without converting the result: the engine's value (a `bigint` for an `int`,
 * typed objects, ...), for a caller that hands it to another expression (composited variables).
 */
export function evaluateToCel(program: CelProgram, activation: CelActivation | PreparedActivation): unknown {
  const prepared = activation instanceof PreparedActivation;
  if (prepared && activation.environment !== program.environment) {
    throw new RangeError('the activation was prepared for another environment');
  }
  let result: unknown;
  try {
    let values: Readonly<Record<string, unknown>>;
    if (prepared) values = activation.values;
    else if (program.inputs.length === 0 && program.absent.length === 0) values = activation;
    else {
      const converted: Record<string, unknown> = { ...activation };
      const inputs = program.inputs;
      for (let i = 0; i < inputs.length; i++) {
        const [name, convert] = inputs[i];
        const v = activation[name];
        if (v !== undefined) converted[name] = v === null ? null : convert(v);
      }
      const absent = program.absent;
      for (let i = 0; i < absent.length; i++) {
        if (activation[absent[i][0]] == null) converted[absent[i][0]] = absent[i][1];
      }
      values = converted;
    }
    result = program.parsed(values);
  } catch (e) {
    throw evaluationErrorFrom(e);
  }
  if (result instanceof Promise) {
    return result.catch((e: unknown) => {
      throw evaluationErrorFrom(e);
    });
  }
  return result;
}

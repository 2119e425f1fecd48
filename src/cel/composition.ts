import type { CelDeclarations, CelEnvironment } from './cel-environment.js';
import type { EngineType } from './engine-internals.js';
import type { CelEnvironmentSet } from './environment-set.js';
import { CelCompileError, CelEvaluationError } from './errors.js';
import { type CelActivation, type CelProgram, compile, evaluateToCel } from './program.js';

/**
 * Composited variables (kube's `CompositedCompiler`): a policy's named `variables`, each an
 * expression that may read the use's variables and the variables declared before it as
 * `variables.<name>`. Each is evaluated lazily, at most once per evaluation, when an expression
 * first reads it; a variable that failed to compile fails the evaluation that reads it.
 */

/** A named expression of a policy's `variables`. */
export interface NamedExpression {
  readonly name: string;
  readonly expression: string;
}

/** One compiled variable: its program, or why it does not compile. */
export interface CompiledVariable {
  readonly name: string;
  readonly program?: CelProgram;
  readonly error?: CelCompileError;
}

/** The type of `variables` (kube's `VariablesTypeName`). */
export const VARIABLES_TYPE = 'kubernetes.variables';

/** Declared field types kube keeps for a variable: scalars, and lists and maps of them; else `dyn`. */
const KEPT_TYPES: ReadonlySet<string> = new Set([
  'bool',
  'bytes',
  'double',
  'int',
  'uint',
  'string',
  'null',
  'google.protobuf.Timestamp',
  'google.protobuf.Duration',
]);

/** kube's `convertCelTypeToDeclType`: the type `variables.<name>` is declared with. */
function declaredType(t: EngineType | undefined): string {
  if (t === undefined) return 'dyn';
  if (t.kind === 'list') return `list<${declaredType(t.valueType)}>`;
  if (t.kind === 'map') return `map<${declaredType(t.keyType)}, ${declaredType(t.valueType)}>`;
  return KEPT_TYPES.has(t.name) ? t.name : 'dyn';
}

/** Resolves a variable's value for the `variables` object of one evaluation. */
type Resolve = (name: string) => unknown;

/**
 * The value of `variables` in one evaluation: a map the engine reads with `get`, which evaluates
 * a variable on first read and keeps its value (or its error) for later reads.
 */
class VariablesValue extends Map<string, unknown> {
  readonly #resolve: Resolve;
  readonly #errors = new Map<string, unknown>();

  constructor(resolve: Resolve) {
    super();
    this.#resolve = resolve;
  }

  override get(name: string): unknown {
    if (super.has(name)) return super.get(name);
    if (this.#errors.has(name)) throw this.#errors.get(name);
    try {
      const value = this.#resolve(name);
      super.set(name, value);
      return value;
    } catch (e) {
      this.#errors.set(name, e);
      throw e;
    }
  }
}

/** A use's environment with composited variables, and the compiled variables. */
export class CelComposition {
  readonly #byName: ReadonlyMap<string, CompiledVariable>;

  constructor(
    /** The environment for the policy's expressions: the use's variables and `variables` with every field. */
    readonly environment: CelEnvironment,
    /** The variables in declaration order. */
    readonly variables: readonly CompiledVariable[],
    /** Makes the `variables` value of one evaluation (of the class the environments declare). */
    private readonly makeValue: (resolve: Resolve) => VariablesValue,
  ) {
    this.#byName = new Map(variables.map((v) => [v.name, v]));
  }

  /**
   * `activation` with `variables` bound for one evaluation (of one or several expressions: the
   * variables' values are shared among them). Pass the result to `evaluate`.
   */
  bind(activation: CelActivation): CelActivation {
    const bound: Record<string, unknown> = { ...activation };
    bound.variables = this.makeValue((name) => this.#evaluateVariable(name, bound));
    return bound;
  }

  #evaluateVariable(name: string, activation: CelActivation): unknown {
    const compiled = this.#byName.get(name);
    if (compiled?.program === undefined) {
      const reason = compiled?.error?.message ?? 'not declared';
      throw new CelEvaluationError(`composited variable "${name}" fails to compile: ${reason}`, 'invalid_variable');
    }
    let value: unknown;
    try {
      value = evaluateToCel(compiled.program, activation);
    } catch (e) {
      throw new CelEvaluationError(
        `composited variable "${name}" fails to evaluate: ${(e as Error).message}`,
        e instanceof CelEvaluationError ? e.code : 'evaluation_error',
        { cause: e },
      );
    }
    if (value instanceof Promise) {
      throw new CelEvaluationError(
        `composited variable "${name}" fails to evaluate: asynchronous functions are not supported in variables`,
        'evaluation_error',
      );
    }
    return value;
  }
}

/**
 * Compiles `variables` in order for the use `declarations`, each in an environment where
 * `variables` has the fields of those before it (typed by their result, as kube declares them),
 * and builds the environment for the policy's other expressions. `mode` picks the environment
 * of the pair (`newExpressions` for a policy being written, `storedExpressions` for a stored
 * one). Expensive: call it when the policy is configured. A variable that does not compile is
 * kept with its error (its field is `dyn`).
 */
export function composeVariables(
  set: CelEnvironmentSet,
  declarations: CelDeclarations,
  variables: readonly NamedExpression[],
  mode: 'newExpressions' | 'storedExpressions' = 'newExpressions',
): CelComposition {
  // One class for every step: a value made for the last environment is one of each step's type.
  class Variables extends VariablesValue {}
  const fields: Record<string, string> = {};
  const environmentWith = (f: Readonly<Record<string, string>>): CelEnvironment =>
    set.extend({
      name: `${declarations.name}-composited`,
      variables: [
        ...declarations.variables,
        { name: 'variables', type: { kind: 'object', typeName: VARIABLES_TYPE, fields: { ...f }, ctor: Variables } },
      ],
    })[mode];
  const compiled: CompiledVariable[] = [];
  for (const v of variables) {
    const env = environmentWith(fields);
    try {
      const program = compile(v.expression, env);
      compiled.push({ name: v.name, program });
      fields[v.name] = declaredType(program.ast.checkedType);
    } catch (e) {
      if (!(e instanceof CelCompileError)) throw e;
      compiled.push({ name: v.name, error: e });
      fields[v.name] = 'dyn';
    }
  }
  return new CelComposition(environmentWith(fields), compiled, (resolve) => new Variables(resolve));
}

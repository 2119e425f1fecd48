import type { CelEnvironment } from '../../cel/cel-environment.js';
import { AUTHENTICATION_CLAIMS_DECLARATIONS, AUTHENTICATION_USER_DECLARATIONS } from '../../cel/declarations.js';
import type { CelEnvironmentSet } from '../../cel/environment-set.js';
import { CelCompileError } from '../../cel/errors.js';
import { type CelProgram, compile } from '../../cel/program.js';

/** An expression that does not compile, or compiles to the wrong type; `detail` is kube's text. */
export class CelExpressionInvalid extends Error {
  override readonly name = 'CelExpressionInvalid';

  constructor(readonly detail: string) {
    super(detail);
  }
}

/** What an expression must evaluate to: `bool` for validation rules, anything for mappings. */
export type AuthenticationCelReturn = 'bool' | 'any';

/**
 * Compiles the expressions of JWT authenticators, as kube-apiserver's authentication CEL
 * compiler: `claims` (a `map<string, dyn>`) for claim rules and mappings, `user` (a
 * `kubernetes.UserInfo`) for user validation rules, in the environment of stored expressions
 * (configuration files may use every library the server has).
 */
export class AuthenticationCelCompiler {
  readonly #claims: CelEnvironment;
  readonly #user: CelEnvironment;

  constructor(set: CelEnvironmentSet) {
    this.#claims = set.extend(AUTHENTICATION_CLAIMS_DECLARATIONS).storedExpressions;
    this.#user = set.extend(AUTHENTICATION_USER_DECLARATIONS).storedExpressions;
  }

  /** @throws CelExpressionInvalid */
  compileClaims(expression: string, returns: AuthenticationCelReturn): CelProgram {
    return compileChecked(expression, this.#claims, returns);
  }

  /** @throws CelExpressionInvalid */
  compileUser(expression: string): CelProgram {
    return compileChecked(expression, this.#user, 'bool');
  }
}

function compileChecked(expression: string, env: CelEnvironment, returns: AuthenticationCelReturn): CelProgram {
  let program: CelProgram;
  try {
    program = compile(expression, env);
  } catch (e) {
    if (e instanceof CelCompileError) throw new CelExpressionInvalid(e.message);
    throw new CelExpressionInvalid(`compilation failed: ${e instanceof Error ? e.message : String(e)}`);
  }
  // Like cel-go's check against the declared return type: a `dyn` result is not a `bool`.
  if (returns === 'bool' && program.outputType !== 'bool') throw new CelExpressionInvalid('must evaluate to bool');
  return program;
}

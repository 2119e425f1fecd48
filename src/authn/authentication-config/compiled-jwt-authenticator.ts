import type { CelProgram } from '../../cel/program.js';
import type { JwtAuthenticatorConfig } from './types.js';

/** A compiled CEL rule and the text it reports when it fails. */
export interface CompiledRule {
  readonly expression: string;
  readonly program: CelProgram;
  readonly message: string;
}

/** A compiled extra mapping. */
export interface CompiledExtra {
  readonly key: string;
  readonly expression: string;
  readonly program: CelProgram;
}

/**
 * A validated JWT authenticator with its expressions compiled once (kube's `CELMapper`):
 * each mapping is a program when written as an expression, `undefined` when written as a claim.
 */
export interface CompiledJwtAuthenticator {
  readonly config: JwtAuthenticatorConfig;
  readonly username: CelProgram | undefined;
  readonly groups: CelProgram | undefined;
  readonly uid: CelProgram | undefined;
  readonly extra: readonly CompiledExtra[];
  readonly claimValidationRules: readonly CompiledRule[];
  readonly userValidationRules: readonly CompiledRule[];
}

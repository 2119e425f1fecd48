import type { Schema, SchemaValidationRule } from '../../apis/schema/schema.js';
import { forEachNode } from '../../cel/ast-walk.js';
import type { CelEnvironment } from '../../cel/cel-environment.js';
import { estimateCost } from '../../cel/cost/cost-estimator.js';
import { schemaSizeBound, valueSizeBound } from '../../cel/cost/size-bounds.js';
import { crdValidationDeclarations } from '../../cel/declarations.js';
import type { CelEnvironmentPair, CelEnvironmentSet } from '../../cel/environment-set.js';
import { CelCompileError } from '../../cel/errors.js';
import { type CelActivation, type CelProgram, compile } from '../../cel/program.js';
import { trimSpace } from '../../cel/string-semantics.js';
import { validFieldPath } from './rule-field-path.js';

/** kube's names of the rule variables. */
export const SELF = 'self';
export const OLD_SELF = 'oldSelf';

/** One rule compiled on its node (kube's `CompilationResult`). */
export interface CompiledRule {
  readonly rule: SchemaValidationRule;
  /** Absent when the rule is empty (nothing to run) or did not compile (`error`). */
  readonly program?: CelProgram;
  /** Why the rule did not compile, in kube's words (`compilation failed: ...`). */
  readonly error?: string;
  /** The rule reads `oldSelf`: a transition rule. */
  readonly usesOldSelf: boolean;
  readonly optionalOldSelf: boolean;
  /** Estimated worst-case cost of one evaluation, from the schema's size limits. */
  readonly maxCost: number;
  /** What one evaluation of the rule on these values is charged (see {@link runtimeCost}). */
  readonly cost?: (activation: CelActivation) => number;
  readonly messageProgram?: CelProgram;
  /** Why `messageExpression` did not compile, in kube's words. */
  readonly messageError?: string;
  readonly messageMaxCost: number;
  readonly messageCost?: (activation: CelActivation) => number;
  /** `fieldPath` as a field error prints it (`spec.replicas`), when the rule has a valid one. */
  readonly fieldPath?: string;
}

/** Which environment of a pair an expression compiles in (kube's `EnvLoader`). */
export interface ExpressionEnvironments {
  /** `storedExpressions` for the rule when it was stored before, else `newExpressions`. */
  rule(pair: CelEnvironmentPair, expression: string): CelEnvironment;
  messageExpression(pair: CelEnvironmentPair, expression: string): CelEnvironment;
}

/**
 * The environments of one schema node: `self` and `oldSelf` of the node's type, one pair with
 * `oldSelf` plain and one with it optional, each declared on first use.
 */
export class NodeEnvironments {
  #plain: CelEnvironmentPair | undefined;
  #optional: CelEnvironmentPair | undefined;

  constructor(
    private readonly set: CelEnvironmentSet,
    readonly schema: Schema,
    readonly isResourceRoot: boolean,
  ) {}

  pair(optionalOldSelf: boolean): CelEnvironmentPair {
    const options = { isResourceRoot: this.isResourceRoot, optionalOldSelf };
    if (optionalOldSelf) {
      this.#optional ??= this.set.extend(crdValidationDeclarations(this.schema, options));
      return this.#optional;
    }
    this.#plain ??= this.set.extend(crdValidationDeclarations(this.schema, options));
    return this.#plain;
  }
}

/**
 * What one evaluation of `program` is charged at run time: its cost on the values evaluated (an
 * upper bound, see the CEL layer's cost estimator), never more than its estimate from the
 * schema. An expression whose cost does not depend on the sizes of its inputs (the same with
 * every size 0 as with every size unknown) is charged a constant, without walking it again.
 */
function runtimeCost(program: CelProgram, staticCost: number): (activation: CelActivation) => number {
  const atZero = estimateCost(program.ast, () => 0).cost;
  if (atZero === estimateCost(program.ast, () => undefined).cost) {
    const constant = Math.min(staticCost, atZero);
    return () => constant;
  }
  return (activation) => Math.min(staticCost, estimateCost(program.ast, valueSizeBound(activation)).cost);
}

function readsOldSelf(program: CelProgram): boolean {
  let found = false;
  forEachNode(program.ast, (node) => {
    if (node.op === 'id' && node.args === OLD_SELF) found = true;
  });
  return found;
}

function compileError(e: unknown, prefix: string): string {
  if (e instanceof CelCompileError) return `${prefix}${e.message}`;
  return `${prefix}compilation failed: ${e instanceof Error ? e.message : String(e)}`;
}

/**
 * Compiles one rule of the node `envs.schema` as kube-apiserver does: the rule must type-check
 * to `bool`, its `messageExpression` to `string`; costs are estimated from the node's schema
 * (`maxLength`, `maxItems`, `maxProperties`); `fieldPath` is resolved below the node. A rule of
 * only white space compiles to nothing.
 */
export function compileRule(
  rule: SchemaValidationRule,
  envs: NodeEnvironments,
  choose: ExpressionEnvironments,
): CompiledRule {
  const optionalOldSelf = rule.optionalOldSelf === true;
  const base = { rule, usesOldSelf: false, optionalOldSelf, maxCost: 0, messageMaxCost: 0 };
  if (typeof rule.rule !== 'string' || trimSpace(rule.rule) === '') return base;
  const pair = envs.pair(optionalOldSelf);
  let program: CelProgram;
  try {
    program = compile(rule.rule, choose.rule(pair, rule.rule));
  } catch (e) {
    return { ...base, error: compileError(e, '') };
  }
  if (program.outputType !== 'bool') return { ...base, error: 'cel expression must evaluate to a bool' };
  const bound = schemaSizeBound({ [SELF]: envs.schema, [OLD_SELF]: envs.schema });
  const maxCost = estimateCost(program.ast, bound).cost;
  const compiled = {
    ...base,
    program,
    usesOldSelf: readsOldSelf(program),
    maxCost,
    cost: runtimeCost(program, maxCost),
  };
  let message: Partial<Pick<CompiledRule, 'messageProgram' | 'messageMaxCost' | 'messageCost'>> = {};
  const messageExpression = rule.messageExpression;
  if (typeof messageExpression === 'string' && messageExpression !== '') {
    let messageProgram: CelProgram;
    try {
      messageProgram = compile(messageExpression, choose.messageExpression(pair, messageExpression));
    } catch (e) {
      return { ...compiled, messageError: compileError(e, 'messageExpression ') };
    }
    if (messageProgram.outputType !== 'string') {
      return { ...compiled, messageError: 'messageExpression must evaluate to a string' };
    }
    const messageMaxCost = estimateCost(messageProgram.ast, bound).cost;
    message = { messageProgram, messageMaxCost, messageCost: runtimeCost(messageProgram, messageMaxCost) };
  }
  let fieldPath: string | undefined;
  if (typeof rule.fieldPath === 'string' && rule.fieldPath !== '') {
    const resolved = validFieldPath(rule.fieldPath, envs.schema);
    if (resolved.error === undefined) fieldPath = resolved.path;
  }
  return { ...compiled, ...message, fieldPath };
}

/**
 * CEL validation rules of custom resources (`x-orch-validations`, kube's
 * `x-kubernetes-validations`), as kube-apiserver v1.32 checks them when a definition is written
 * and runs them on every create and update of its objects.
 */
import type { FieldError } from '../../apis/meta/field-error.js';
import type { Schema } from '../../apis/schema/schema.js';
import { LIMITS } from '../../cel/cost/cost-model.js';
import { CelEnvironmentSet } from '../../cel/environment-set.js';
import { versionedCelLibraries } from '../../cel/library/index.js';
import { type PreexistingExpressions, SchemaRulesCompiler } from './compile-validation-rules.js';
import type { ExpressionEnvironments } from './rule-compiler.js';
import { type NodeValidator, type RunLimits, validateRules } from './rule-validator.js';

export type { PreexistingExpressions } from './compile-validation-rules.js';

/** Options of one {@link CompiledRules.validate}. */
export interface ValidateOptions {
  /**
   * Receives, as kube's warning text (`<field>: <message>`), each rule failure that ratcheting
   * let through because the value did not change.
   */
  readonly warn?: (warning: string) => void;
}

/** The compiled rules of one schema. Immutable; validations may run concurrently. */
export interface CompiledRules {
  /**
   * Rule errors of an object (create: old undefined), kube's messages, paths and reasons
   * (a rule at the root reports the field `<nil>`, as kube does); ratcheting on update.
   */
  validate(obj: unknown, old: unknown | undefined, options?: ValidateOptions): FieldError[];
}

/** Options of {@link compileValidationRules}. */
export interface CompileValidationRulesOptions {
  /** Runtime cost of one evaluation of one expression (kube's `PerCallLimit`, 1,000,000). */
  readonly perCallLimit?: number;
  /** Runtime cost of all the rules on one object (kube's `RuntimeCELCostBudget`, 10,000,000). */
  readonly costBudget?: number;
  /** The server's CEL environments; one with kube's libraries is made when absent. */
  readonly cel?: CelEnvironmentSet;
  /**
   * Path of the schema in the definition, prefixed to definition errors, e.g.
   * `spec.versions[0].schema.openAPIV3Schema` (default: none).
   */
  readonly schemaPath?: string;
  /**
   * Which expressions may use every library the server has (kube's stored-expressions
   * environment) rather than only those of the compatibility version: `true` for all (a stored
   * definition being served), or those a definition held before this update. Default: none
   * (a new definition).
   */
  readonly storedExpressions?: boolean | PreexistingExpressions;
  /** The version's schema is unchanged by this update: costs over the per-expression limit are no error. */
  readonly suppressPerExpressionCost?: boolean;
  /**
   * The `CRDValidationRatcheting` feature (beta, on in v1.32): failures of rules that do not read
   * `oldSelf` on values an update leaves unchanged become warnings, and `optionalOldSelf` rules
   * also run without an old value.
   */
  readonly ratcheting?: boolean;
}

class CompiledValidationRules implements CompiledRules {
  constructor(
    private readonly root: NodeValidator,
    private readonly limits: RunLimits,
  ) {}

  validate(obj: unknown, old: unknown | undefined, options?: ValidateOptions): FieldError[] {
    return validateRules(this.root, obj, old, this.limits, options?.warn);
  }
}

function environmentChoice(stored: boolean | PreexistingExpressions | undefined): ExpressionEnvironments {
  if (stored === true) return { rule: (p) => p.storedExpressions, messageExpression: (p) => p.storedExpressions };
  if (stored === undefined || stored === false) {
    return { rule: (p) => p.newExpressions, messageExpression: (p) => p.newExpressions };
  }
  return {
    rule: (p, e) => (stored.rules.has(e) ? p.storedExpressions : p.newExpressions),
    messageExpression: (p, e) => (stored.messageExpressions.has(e) ? p.storedExpressions : p.newExpressions),
  };
}

/**
 * Compiles every x-orch-validations rule of a structural schema (the root of a resource);
 * errors name the rule's path (definition time) with kube's words: the rules' own fields, compile
 * errors, result types, `fieldPath`, transition rules below lists that cannot pair items, and
 * estimated costs over the per-expression and per-schema limits. `rules` is absent when no rule
 * can run (the schema has none, or only on nodes CEL cannot type, which kube leaves out).
 */
export function compileValidationRules(
  schema: Schema,
  opts: CompileValidationRulesOptions,
): { rules?: CompiledRules; errors: FieldError[] } {
  const set = opts.cel ?? new CelEnvironmentSet({ libraries: versionedCelLibraries() });
  const compiler = new SchemaRulesCompiler(
    set,
    environmentChoice(opts.storedExpressions),
    opts.suppressPerExpressionCost === true,
  );
  const schemaPath = opts.schemaPath ?? '';
  const root = compiler.compileRoot(schema, schemaPath);
  const errors = compiler.errors(schemaPath);
  if (root === undefined) return { errors };
  const limits: RunLimits = {
    perCallLimit: opts.perCallLimit ?? LIMITS.perCall,
    costBudget: opts.costBudget ?? LIMITS.perObject,
    ratcheting: opts.ratcheting ?? true,
  };
  return { rules: new CompiledValidationRules(root, limits), errors };
}

/** The rules and messageExpressions of a definition's schemas, to pass as `storedExpressions` when it is updated. */
export function preexistingExpressions(schemas: readonly Schema[]): PreexistingExpressions {
  const rules = new Set<string>();
  const messageExpressions = new Set<string>();
  const visit = (s: Schema): void => {
    for (const r of s['x-orch-validations'] ?? []) {
      rules.add(r.rule);
      if (r.messageExpression) messageExpressions.add(r.messageExpression);
    }
    for (const p of Object.values(s.properties ?? {})) visit(p);
    if (typeof s.additionalProperties === 'object') visit(s.additionalProperties);
    if (s.items) visit(s.items);
  };
  for (const s of schemas) visit(s);
  return { rules, messageExpressions };
}

import { type FieldError, fieldErrors, invalidShown } from '../../apis/meta/field-error.js';
import { childPath, indexPath, keyPath } from '../../apis/schema/field-path.js';
import type { Schema } from '../../apis/schema/schema.js';
import { costErrorMessage } from '../../cel/cost/cost-budget.js';
import { LIMITS } from '../../cel/cost/cost-model.js';
import type { CelEnvironmentSet } from '../../cel/environment-set.js';
import { escapeCelName } from '../../cel/escaping.js';
import { goQuote } from '../../util/go-strconv.js';
import { goValidationRule, ruleFieldErrors, VALIDATIONS_KEY } from './rule-checks.js';
import { type CompiledRule, compileRule, type ExpressionEnvironments, NodeEnvironments } from './rule-compiler.js';
import type { NodeValidator } from './rule-validator.js';
import { MAX_COST, maxElements, minSerializedSize, multiplyCost, unboundedCardinality } from './schema-cardinality.js';

/** kube's `StaticEstimatedCostLimit`: the estimated cost of one expression, times its cardinality. */
const ESTIMATED_COST_LIMIT = LIMITS.estimatedPerExpression;
/** kube's `StaticEstimatedCRDCostLimit`: the estimated cost of every expression of one schema. */
const ESTIMATED_SCHEMA_COST_LIMIT = 100_000_000;

/** The expressions a definition held before an update: these compile with every library the server has. */
export interface PreexistingExpressions {
  readonly rules: ReadonlySet<string>;
  readonly messageExpressions: ReadonlySet<string>;
}

/** Where a schema node sits, as the walk passes it down. */
interface NodeContext {
  /** The node's path in the definition. */
  readonly path: string;
  /** How many times the node can occur in one object; undefined below an unbounded list or map. */
  readonly cardinality: number | undefined;
  /** The root of the resource or of an embedded resource. */
  readonly resourceRoot: boolean;
  /** The path of the outermost list whose items cannot be paired with old ones (set or atomic). */
  readonly uncorrelatable: string | undefined;
}

/** A node's definition errors of the two kinds kube keeps apart (schema errors are listed first). */
interface Findings {
  readonly schemaErrors: FieldError[];
  readonly celErrors: FieldError[];
}

const schemaOf = (v: Schema | boolean | undefined): Schema | undefined =>
  typeof v === 'object' && v !== null ? v : undefined;

const shown = (path: string): string => (path === '' ? '<nil>' : path);

/**
 * Walks a structural schema once: compiles the rules of every node (kube's `NewValidator`) and
 * finds the definition-time problems of each (kube's CRD validation of `x-kubernetes-validations`),
 * with the schema's total estimated cost.
 */
export class SchemaRulesCompiler {
  readonly findings: Findings = { schemaErrors: [], celErrors: [] };
  #total = 0;
  /** The costliest expressions (at least 1% of the schema limit), most expensive first, at most 4. */
  readonly #mostExpensive: { path: string; cost: number }[] = [];

  constructor(
    private readonly set: CelEnvironmentSet,
    private readonly choose: ExpressionEnvironments,
    private readonly suppressPerExpressionCost: boolean,
  ) {}

  /** The validator of `schema` (the resource root) and of the nodes below it that have rules. */
  compileRoot(schema: Schema, schemaPath: string): NodeValidator | undefined {
    return this.#node(schema, { path: schemaPath, cardinality: 1, resourceRoot: true, uncorrelatable: undefined });
  }

  /** The errors of the whole schema: schema errors, then CEL errors, then the total cost. */
  errors(schemaPath: string): FieldError[] {
    const errs = [...this.findings.schemaErrors, ...this.findings.celErrors];
    if (this.#total > ESTIMATED_SCHEMA_COST_LIMIT) {
      for (const { path } of this.#mostExpensive) {
        errs.push(
          fieldErrors.forbidden(
            path,
            'contributed to estimated rule cost total exceeding cost limit for entire OpenAPIv3 schema',
          ),
        );
      }
      const what = `${VALIDATIONS_KEY} estimated rule cost total for entire OpenAPIv3 schema`;
      errs.push(
        fieldErrors.forbidden(shown(schemaPath), costErrorMessage(what, this.#total, ESTIMATED_SCHEMA_COST_LIMIT)),
      );
    }
    return errs;
  }

  #observe(path: string, cost: number): void {
    this.#total = Math.min(this.#total + cost, MAX_COST);
    if (cost < ESTIMATED_SCHEMA_COST_LIMIT / 100) return;
    this.#mostExpensive.push({ path, cost });
    this.#mostExpensive.sort((a, b) => b.cost - a.cost);
    if (this.#mostExpensive.length > 4) this.#mostExpensive.length = 4;
  }

  #node(schema: Schema, ctx: NodeContext): NodeValidator | undefined {
    const schemaErrorsBefore = this.findings.schemaErrors.length;
    const minSize = minSerializedSize(schema);
    const exposed = minSize !== undefined;
    const elements = maxElements(schema);
    const childCardinality =
      ctx.cardinality === undefined || elements === undefined ? undefined : multiplyCost(ctx.cardinality, elements);
    const child = (s: Schema, path: string, uncorrelatable: string | undefined) =>
      this.#node(s, {
        path,
        cardinality: childCardinality,
        resourceRoot: s['x-orch-embedded-resource'] === true,
        uncorrelatable,
      });

    // Children first, in kube's order: their errors come before the node's own.
    const values = schemaOf(schema.additionalProperties);
    const additionalProperties =
      values && child(values, childPath(ctx.path, 'additionalProperties'), ctx.uncorrelatable);
    const properties = new Map<string, NodeValidator>();
    for (const [name, prop] of Object.entries(schema.properties ?? {})) {
      const v = child(prop, keyPath(childPath(ctx.path, 'properties'), name), ctx.uncorrelatable);
      // CEL sees a property only with a type; one it can spell only when the node has a type too.
      const seen = minSerializedSize(prop) !== undefined && (exposed || escapeCelName(name) === undefined);
      if (v !== undefined && seen) properties.set(name, v);
    }
    let items: NodeValidator | undefined;
    if (schema.items !== undefined) {
      const listPairsItems = schema['x-orch-list-type'] === 'map';
      items = child(
        schema.items,
        childPath(ctx.path, 'items'),
        ctx.uncorrelatable ?? (listPairsItems ? undefined : ctx.path),
      );
    }

    const rules = schema['x-orch-validations'] ?? [];
    let compiled: CompiledRule[] = [];
    let initError: string | undefined;
    if (rules.length > 0) {
      this.findings.schemaErrors.push(...ruleFieldErrors(rules, schema, ctx.path));
      if (exposed) {
        const envs = new NodeEnvironments(this.set, schema, ctx.resourceRoot);
        compiled = rules.map((rule) => compileRule(rule, envs, this.choose));
      } else {
        initError = 'failed to convert to declType for CEL validation rules';
      }
      // kube reports CEL errors only where the rules at and below the node have no other error.
      if (this.findings.schemaErrors.length === schemaErrorsBefore) {
        this.#report(compiled, ctx, minSize);
      }
    }
    if (compiled.length === 0 && initError === undefined && !additionalProperties && properties.size === 0 && !items) {
      return undefined;
    }
    return {
      schema,
      rules: compiled,
      initError,
      properties: properties.size > 0 ? properties : undefined,
      additionalProperties,
      items,
    };
  }

  /** The CEL errors of one node's compiled rules, and their costs toward the schema's total. */
  #report(compiled: readonly CompiledRule[], ctx: NodeContext, minSize: number | undefined): void {
    const errs = this.findings.celErrors;
    const rulesPath = childPath(ctx.path, VALIDATIONS_KEY);
    if (minSize === undefined) {
      errs.push({
        type: 'InternalError',
        field: rulesPath,
        message: `Internal error: internal error: failed to construct type information for ${VALIDATIONS_KEY} rules: unable to convert structural schema to CEL declarations`,
      });
      return;
    }
    const cardinality = ctx.cardinality ?? unboundedCardinality(minSize);
    compiled.forEach((cr, i) => {
      const at = (member: string) => childPath(indexPath(rulesPath, i), member);
      const cost = multiplyCost(cr.maxCost, cardinality);
      if (!this.suppressPerExpressionCost && cost > ESTIMATED_COST_LIMIT) {
        errs.push(
          fieldErrors.forbidden(at('rule'), costErrorMessage('estimated rule cost', cost, ESTIMATED_COST_LIMIT)),
        );
      }
      this.#observe(at('rule'), cost);
      if (cr.error !== undefined) errs.push(invalidShown(at('rule'), goValidationRule(cr.rule), cr.error));
      if (cr.messageError !== undefined) {
        errs.push(invalidShown(at('messageExpression'), goValidationRule(cr.rule), cr.messageError));
      } else if (cr.messageProgram !== undefined) {
        if (!this.suppressPerExpressionCost && cr.messageMaxCost > ESTIMATED_COST_LIMIT) {
          const message = costErrorMessage('estimated messageExpression cost', cr.messageMaxCost, ESTIMATED_COST_LIMIT);
          errs.push(fieldErrors.forbidden(at('messageExpression'), message));
        }
        this.#observe(at('messageExpression'), cr.messageMaxCost);
      }
      if (cr.usesOldSelf) {
        if (ctx.uncorrelatable !== undefined) {
          const detail = `oldSelf cannot be used on the uncorrelatable portion of the schema within ${shown(ctx.uncorrelatable)}`;
          errs.push(invalidShown(at('rule'), goQuote(cr.rule.rule), detail));
        }
      } else if (cr.rule.optionalOldSelf !== undefined) {
        errs.push(
          invalidShown(
            at('optionalOldSelf'),
            String(cr.rule.optionalOldSelf),
            'may not be set if oldSelf is not used in rule',
          ),
        );
      }
    });
  }
}

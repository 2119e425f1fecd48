import { type CelNode, estimateCost, type SizeBound } from './cost-estimator.js';
import { LIMITS } from './cost-model.js';
import { valueSizeBound } from './size-bounds.js';

/** kube's wording of a cost over a limit: the factor, and what to add to the schema. */
export function costErrorMessage(costName: string, cost: number, limit: number): string {
  const exceed = cost / limit;
  let factor: string;
  if (exceed > 100) factor = 'more than 100x';
  else if (exceed < 1.5) factor = `${exceed.toFixed(6)}x`;
  else factor = `${exceed.toFixed(1)}x`;
  return `${costName} exceeds budget by factor of ${factor} (try simplifying the rule, or adding maxItems, maxProperties, and maxLength where arrays, maps, and strings are declared)`;
}

/**
 * The write-time check: the estimated cost of a rule against the per-expression limit. Returns
 * kube's message when over (the caller reports it as a field error of the rule), else undefined.
 */
export function checkEstimatedCost(
  ast: CelNode,
  bound: SizeBound,
  limit: number = LIMITS.estimatedPerExpression,
): string | undefined {
  const { cost } = estimateCost(ast, bound);
  return cost > limit ? costErrorMessage('estimated rule cost', cost, limit) : undefined;
}

/** An evaluation would cost more than one call or the object's remaining budget allows. */
export class CostLimitError extends Error {
  constructor(
    message: string,
    /** `call`: one rule over the per-call limit; `object`: the object's budget is spent. */
    readonly scope: 'call' | 'object',
  ) {
    super(message);
    this.name = 'CostLimitError';
  }
}

function outOfBudget(): CostLimitError {
  return new CostLimitError(
    'validation failed due to running out of cost budget, no further validation rules will be run',
    'object',
  );
}

/**
 * The runtime budget of one object's validation: every rule evaluated on it is charged its cost
 * on that input; a rule over the per-call limit fails alone (`call cost exceeds limit for rule`),
 * and once the object's total is spent no further rule runs (kube's messages). Charge before
 * evaluating: the cost depends only on the expression and the input, so an evaluation that
 * would exceed the budget never starts.
 */
export class ObjectCostBudget {
  private remaining: number;
  private exhausted = false;

  constructor(
    total: number = LIMITS.perObject,
    private readonly perCall: number = LIMITS.perCall,
  ) {
    this.remaining = total;
  }

  /** The cost of evaluating `ast` on `activation`, charged to this budget. @throws CostLimitError */
  charge(ast: CelNode, activation: Readonly<Record<string, unknown>>, rule: string): number {
    if (this.exhausted) throw outOfBudget();
    const { cost } = estimateCost(ast, valueSizeBound(activation));
    if (cost > this.perCall) throw new CostLimitError(`call cost exceeds limit for rule: ${rule}`, 'call');
    if (cost > this.remaining) {
      this.remaining = 0;
      this.exhausted = true;
      throw outOfBudget();
    }
    this.remaining -= cost;
    return cost;
  }

  get left(): number {
    return this.remaining;
  }
}

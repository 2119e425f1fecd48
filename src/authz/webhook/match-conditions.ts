import { type FieldError, fieldErrors } from '../../apis/meta/field-error.js';
import type { CelEnvironment } from '../../cel/cel-environment.js';
import { AUTHORIZATION_MATCH_DECLARATIONS } from '../../cel/declarations.js';
import type { CelEnvironmentSet } from '../../cel/environment-set.js';
import { CelCompileError } from '../../cel/errors.js';
import { type CelProgram, compile, evaluate } from '../../cel/program.js';
import { aggregateErrorMessage } from '../../util/go-errors.js';
import type { AuthorizationMetrics } from '../authorization-metrics.js';
import type { SubjectAccessReviewSpec } from './subject-access-review.js';
import type { WebhookMatcher } from './webhook-authorizer.js';

/** kube's limit on a webhook's match conditions. */
export const MAX_MATCH_CONDITIONS = 64;

/**
 * Compiles match conditions as kube-apiserver's authorization CEL compiler: `request` is the
 * v1 SubjectAccessReview spec, in the environment of stored expressions (configuration files
 * may use every library the server has), and each condition must evaluate to `bool`.
 */
export class MatchConditionCompiler {
  readonly #env: CelEnvironment;

  constructor(set: CelEnvironmentSet) {
    this.#env = set.extend(AUTHORIZATION_MATCH_DECLARATIONS).storedExpressions;
  }

  /** The program, or kube's error detail (`compilation failed: ...`, `must evaluate to bool but got ...`). */
  compile(expression: string): CelProgram | { readonly error: string } {
    let program: CelProgram;
    try {
      program = compile(expression, this.#env);
    } catch (e) {
      if (e instanceof CelCompileError) return { error: e.message };
      return { error: `compilation failed: ${e instanceof Error ? e.message : String(e)}` };
    }
    if (program.outputType !== 'bool') return { error: `must evaluate to bool but got ${program.outputType}` };
    return program;
  }
}

/** Where a webhook's conditions are and what they are reported as in metrics. */
export interface MatchConditionContext {
  /** Field path of the webhook's fields (kube's: `authorizers[i]`). */
  readonly path: string;
  readonly authorizerType: string;
  readonly authorizerName: string;
  readonly metrics?: AuthorizationMetrics;
  /** Monotonic milliseconds for the evaluation-time metric; default `performance.now`. */
  readonly now?: () => number;
}

/**
 * Validates and compiles a webhook's match conditions (kube's `compileMatchConditions`): at most
 * 64; each expression present, not repeated, compiling to `bool`. Every problem is a field error
 * at `<path>.matchConditions[i].expression`. The matcher is undefined when there is nothing to
 * match (every request goes to the webhook).
 */
export function compileMatchConditions(
  expressions: readonly string[],
  compiler: MatchConditionCompiler,
  ctx: MatchConditionContext,
): { readonly matcher: WebhookMatcher | undefined; readonly errors: readonly FieldError[] } {
  const base = `${ctx.path}.matchConditions`;
  if (expressions.length > MAX_MATCH_CONDITIONS) {
    return { matcher: undefined, errors: [fieldErrors.tooMany(base, expressions.length, MAX_MATCH_CONDITIONS)] };
  }
  const errors: FieldError[] = [];
  const seen = new Set<string>();
  const programs: CelProgram[] = [];
  expressions.forEach((expression, i) => {
    const path = `${base}[${i}].expression`;
    if (expression.trim() === '') {
      errors.push(fieldErrors.required(path));
      return;
    }
    if (seen.has(expression)) {
      errors.push(fieldErrors.duplicate(path, expression));
      return;
    }
    seen.add(expression);
    const compiled = compiler.compile(expression);
    if ('error' in compiled) errors.push(fieldErrors.invalid(path, expression, compiled.error));
    else programs.push(compiled);
  });
  if (programs.length === 0) return { matcher: undefined, errors };
  return { matcher: celMatcher(programs, ctx), errors };
}

/**
 * The spec as CEL sees it (kube's `convertObjectToUnstructured`): every user and string field
 * present even when empty, `extra` an empty map when absent, the selectors' requirements.
 */
function requestValue(spec: SubjectAccessReviewSpec): Record<string, unknown> {
  const out: Record<string, unknown> = {
    user: spec.user,
    groups: [...spec.groups],
    uid: spec.uid,
    extra: spec.extra,
  };
  const ra = spec.resourceAttributes;
  if (ra) {
    const resourceAttributes: Record<string, unknown> = {
      namespace: ra.namespace,
      verb: ra.verb,
      group: ra.group,
      version: ra.version,
      resource: ra.resource,
      subresource: ra.subresource,
      name: ra.name,
    };
    if (ra.fieldSelector) resourceAttributes.fieldSelector = { requirements: ra.fieldSelector.requirements };
    if (ra.labelSelector) resourceAttributes.labelSelector = { requirements: ra.labelSelector.requirements };
    out.resourceAttributes = resourceAttributes;
  }
  if (spec.nonResourceAttributes) out.nonResourceAttributes = { ...spec.nonResourceAttributes };
  return out;
}

/**
 * kube's `CELMatcher.Eval`: the conditions in order; the first that is false excludes the request
 * (counted as an exclusion); failures are collected, and when none was false the request fails
 * with them aggregated (`cel evaluation error: expression '<e>' resulted in error: <why>`). Every
 * evaluation is timed.
 */
function celMatcher(programs: readonly CelProgram[], ctx: MatchConditionContext): WebhookMatcher {
  const now = ctx.now ?? (() => performance.now());
  const record = (started: number, outcome: 'match' | 'exclude' | 'error') =>
    ctx.metrics?.matchConditions(ctx.authorizerType, ctx.authorizerName, (now() - started) / 1000, outcome);
  return {
    async matches(spec) {
      const started = now();
      const activation = { request: requestValue(spec) };
      const errors: string[] = [];
      for (const program of programs) {
        let result: unknown;
        try {
          result = await evaluate(program, activation);
        } catch (e) {
          const why = e instanceof Error ? e.message : String(e);
          errors.push(`cel evaluation error: expression '${program.expression}' resulted in error: ${why}`);
          continue;
        }
        if (typeof result !== 'boolean') {
          errors.push(
            `cel evaluation error: expression '${program.expression}' eval result type should be bool but got ${typeof result}`,
          );
          continue;
        }
        if (!result) {
          record(started, 'exclude');
          return false;
        }
      }
      if (errors.length > 0) {
        record(started, 'error');
        throw new Error(aggregateErrorMessage(errors));
      }
      record(started, 'match');
      return true;
    },
  };
}

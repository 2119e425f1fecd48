import assert from 'node:assert/strict';
import { it } from 'node:test';
import { Environment, EvaluationError, Optional } from '@marcbachmann/cel-js';
import type { CelLibrary } from '../../cel-library.js';

/**
 * One table row: a CEL expression and what it yields — a value (`want`), an evaluation error
 * with exactly this message (`error`), or a type-check error containing this text (`checkError`).
 */
export interface CelCase {
  readonly expr: string;
  readonly want?: unknown;
  readonly error?: string;
  readonly checkError?: string;
  /** Variables: name → [CEL type, value]. */
  readonly vars?: Readonly<Record<string, readonly [string, unknown]>>;
}

/** A plain environment with kube's options (optional types on) and these libraries registered. */
export function celEnvironment(libraries: readonly CelLibrary[], vars: CelCase['vars'] = {}): Environment {
  const env = new Environment({ enableOptionalTypes: true });
  for (const lib of libraries) lib.register(env);
  for (const [name, [type]] of Object.entries(vars)) env.registerVariable(name, type);
  return env;
}

/** The message of the evaluation error `expr` raises (without the engine's source excerpt). */
export function evaluationErrorOf(env: Environment, expr: string, context?: Record<string, unknown>): string {
  try {
    env.evaluate(expr, context);
  } catch (err) {
    if (err instanceof EvaluationError) return err.summary;
    throw err;
  }
  assert.fail(`${expr} evaluated without an error`);
}

/** Runs each case as one test: type-check, evaluate, compare. */
export function runCelCases(libraries: readonly CelLibrary[], cases: readonly CelCase[]): void {
  for (const c of cases) {
    it(c.expr, () => {
      const env = celEnvironment(libraries, c.vars);
      const context = Object.fromEntries(Object.entries(c.vars ?? {}).map(([k, [, v]]) => [k, v]));
      const checked = env.check(c.expr);
      if (c.checkError !== undefined) {
        assert.equal(checked.valid, false, `${c.expr} type-checked`);
        const message = checked.error?.message ?? '';
        assert.ok(message.includes(c.checkError), `${message} does not contain ${c.checkError}`);
        return;
      }
      assert.equal(checked.valid, true, checked.error?.message);
      if (c.error !== undefined) {
        assert.equal(evaluationErrorOf(env, c.expr, context), c.error);
        return;
      }
      assert.deepEqual(comparable(env.evaluate(c.expr, context)), comparable(c.want));
    });
  }
}

/** Optionals keep their value in a private field, which deepEqual does not see: unwrap them. */
function comparable(v: unknown): unknown {
  if (v instanceof Optional) return v.hasValue() ? { optionalOf: comparable(v.value()) } : { optionalNone: true };
  if (Array.isArray(v)) return v.map(comparable);
  return v;
}

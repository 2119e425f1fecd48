import { UnsignedInt } from '@marcbachmann/cel-js/evaluator';
import type { EngineEvaluator, EngineNode, EngineScope, EngineType } from './engine-internals.js';

/**
 * Map literals as cel-go builds them, where the engine differs:
 *
 * - a key must be a `string`, `int`, `uint` or `bool` (`{1.5: 'a'}`, `{null: 1}` fail when
 *   evaluated: `unsupported key type`);
 * - a key may appear once (`{true: 1, true: 2}` and `{0: 1, 0u: 2}` fail: `Failed with repeated
 *   key`; numbers of different types with one value are one key);
 * - a map with `int`, `uint` or `bool` keys keeps them (the engine turns every key into a string,
 *   so `{6: 'six'}.all(k, k > 5)` saw `'6'`): it becomes a {@link CelMap}, whose lookups find
 *   numeric keys of any numeric type (`{1: 'a'}[1u]`, `{1: 'a'}[1.0]`). A literal with only
 *   string keys stays the engine's plain object.
 */

/** A key's identity for the repeated-key rule: numbers of any type with one value share it. */
function keyIdentity(k: unknown): string | undefined {
  switch (typeof k) {
    case 'string':
      return `s${k}`;
    case 'bigint':
      return `n${k}`;
    case 'boolean':
      return `b${k}`;
    default:
      return k instanceof UnsignedInt ? `n${k.valueOf()}` : undefined;
  }
}

/** The integer value of a numeric key (`undefined` for a double with a fraction, or a non-number). */
function integerKey(k: unknown): bigint | undefined {
  if (typeof k === 'bigint') return k;
  if (k instanceof UnsignedInt) return k.valueOf();
  if (typeof k === 'number' && Number.isInteger(k)) return BigInt(k);
  return undefined;
}

/**
 * A map whose `get`/`has` also find a numeric key by value across `int`, `uint` and `double`.
 * Its `constructor` is `Map`, so the engine (which dispatches on constructors) treats it as one.
 */
export class CelMap extends Map<unknown, unknown> {
  override get(key: unknown): unknown {
    const v = super.get(key);
    if (v !== undefined || typeof key === 'string' || typeof key === 'boolean') return v;
    const wanted = integerKey(key);
    if (wanted === undefined) return undefined;
    for (const [k, value] of this) if (integerKey(k) === wanted) return value;
    return undefined;
  }

  override has(key: unknown): boolean {
    return this.get(key) !== undefined;
  }
}
Object.defineProperty(CelMap.prototype, 'constructor', { value: Map });

/** Keys an engine map literal object must not set (it leaves them out, as the engine does). */
const UNSAFE_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

/**
 * Builds the value of a map literal from its evaluated entries, in order, or throws (through
 * `fail`, which creates an engine error at the node) for an unsupported or repeated key.
 */
export function buildMapLiteral(
  entries: readonly (readonly [unknown, unknown])[],
  fail: (message: string) => Error,
): unknown {
  const seen = new Set<string>();
  let stringKeys = true;
  for (const [k] of entries) {
    const id = keyIdentity(k);
    if (id === undefined) throw fail('unsupported key type');
    if (seen.has(id)) throw fail('Failed with repeated key');
    seen.add(id);
    if (typeof k !== 'string') stringKeys = false;
  }
  if (!stringKeys) return new CelMap(entries);
  const o: Record<string, unknown> = {};
  for (const [k, v] of entries) if (!UNSAFE_KEYS.has(k as string)) o[k as string] = v;
  return o;
}

interface Meta {
  readonly check: (chk: unknown, node: EngineNode, scope: EngineScope) => EngineType;
}

interface MapLiteralMacro {
  typeCheck(chk: unknown, macro: MapLiteralMacro, scope: EngineScope): EngineType;
  evaluate(ev: EngineEvaluator, macro: MapLiteralMacro, scope: EngineScope): unknown;
}

/**
 * Makes the map literal `node` (with at least one entry and no optional entry) evaluate as
 * cel-go does; it type-checks as the engine checks it.
 */
export function markMapLiteral(node: EngineNode): void {
  const meta = (node as EngineNode & { readonly meta: Meta }).meta;
  const entries = node.args as readonly (readonly [EngineNode, EngineNode])[];
  const macro: MapLiteralMacro = {
    typeCheck: (chk, _macro, scope) => meta.check(chk, node, scope),
    evaluate(ev, _macro, scope) {
      const values = entries.map(([k, v]) => [ev.run(k, scope), ev.run(v, scope)] as const);
      const build = (resolved: readonly (readonly [unknown, unknown])[]) =>
        buildMapLiteral(resolved, (message) => ev.createError('invalid_map_key', message, node));
      if (!values.some(([k, v]) => k instanceof Promise || v instanceof Promise)) return build(values);
      return Promise.all(values.map((e) => Promise.all(e))).then(build);
    },
  };
  node.setMeta('macro' as never, macro as never);
}

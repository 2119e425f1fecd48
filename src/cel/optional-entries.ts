import { Optional } from '@marcbachmann/cel-js';
import type { EngineEvaluator, EngineNode, EngineScope, EngineType, EngineTypeChecker } from './engine-internals.js';
import { buildMapLiteral } from './map-literals.js';

/**
 * Optional entries of list and map literals, as cel-go has them with optional types: `[?x, y]`
 * holds `x`'s value when the optional `x` has one and leaves the entry out when it is
 * `optional.none()`; `{?k: v}` likewise with the optional value `v`. The parser marks the entries
 * (source-rewrite.ts); the literal node then type-checks and evaluates through a macro: an
 * optional entry must be of an optional type (or `dyn`), and contributes its value type to the
 * literal's type.
 */

/** Property of a list or map literal node: the indexes of its optional entries. */
export const OPTIONAL_ENTRIES: unique symbol = Symbol('orch.cel.optionalEntries');

type MarkedNode = EngineNode & { [OPTIONAL_ENTRIES]?: ReadonlySet<number> };

/** The indexes of the optional entries of the list or map literal `node` (none for other nodes). */
export function optionalEntriesOf(node: EngineNode): ReadonlySet<number> | undefined {
  return (node as MarkedNode)[OPTIONAL_ENTRIES];
}

type Checker = EngineTypeChecker;

type Unifiable = EngineType & { unify(registry: unknown, other: EngineType): EngineType | undefined };

interface EntriesMacro {
  readonly node: EngineNode;
  readonly optional: ReadonlySet<number>;
  readonly async: boolean;
  typeCheck(checker: Checker, macro: EntriesMacro, scope: EngineScope): EngineType;
  evaluate(ev: EngineEvaluator, macro: EntriesMacro, scope: EngineScope): unknown;
}

function optionalValueType(checker: Checker, node: EngineNode, scope: EngineScope): EngineType {
  const t = checker.check(node, scope);
  if (t.kind === 'optional') return t.valueType ?? checker.getType('dyn');
  if (t.kind === 'dyn') return t;
  throw checker.createError(
    'optional_expected',
    `expected type 'optional_type' but found '${checker.formatType(t)}'`,
    node,
  );
}

function join(checker: Checker, types: readonly EngineType[]): EngineType {
  if (types.length === 0) return checker.getType('dyn');
  let joined = types[0];
  for (let i = 1; i < types.length; i++) {
    joined = (joined as Unifiable).unify(checker.registry, types[i]) ?? checker.getType('dyn');
  }
  return joined;
}

function typeCheck(checker: Checker, macro: EntriesMacro, scope: EngineScope): EngineType {
  const { node, optional } = macro;
  if (node.op === 'list') {
    const elements = node.args as readonly EngineNode[];
    const types = elements.map((e, i) =>
      optional.has(i) ? optionalValueType(checker, e, scope) : checker.check(e, scope),
    );
    return checker.registry.getListType(join(checker, types));
  }
  const entries = node.args as readonly (readonly [EngineNode, EngineNode])[];
  const keys = entries.map((e) => checker.check(e[0], scope));
  const values = entries.map((e, i) =>
    optional.has(i) ? optionalValueType(checker, e[1], scope) : checker.check(e[1], scope),
  );
  return checker.registry.getMapType(join(checker, keys), join(checker, values));
}

function optionalExpected(ev: EngineEvaluator, node: EngineNode): Error {
  return ev.createError('optional_expected', 'optional entry requires an optional value', node);
}

function evaluate(ev: EngineEvaluator, macro: EntriesMacro, scope: EngineScope): unknown {
  const { node, optional } = macro;
  if (node.op === 'list') {
    const out: unknown[] = [];
    const elements = node.args as readonly EngineNode[];
    for (let i = 0; i < elements.length; i++) {
      const v = ev.run(elements[i], scope);
      if (!optional.has(i)) out.push(v);
      else if (!(v instanceof Optional)) throw optionalExpected(ev, elements[i]);
      else if (v.hasValue()) out.push(v.value());
    }
    return out;
  }
  const out: (readonly [unknown, unknown])[] = [];
  const entries = node.args as readonly (readonly [EngineNode, EngineNode])[];
  for (let i = 0; i < entries.length; i++) {
    const k = ev.run(entries[i][0], scope);
    const v = ev.run(entries[i][1], scope);
    if (!optional.has(i)) out.push([k, v]);
    else if (!(v instanceof Optional)) throw optionalExpected(ev, entries[i][1]);
    else if (v.hasValue()) out.push([k, v.value()]);
  }
  return buildMapLiteral(out, (message) => ev.createError('invalid_map_key', message, node));
}

/**
 * Marks the entries at `indexes` of the list or map literal `node` optional and makes the node
 * check and evaluate them as such. Synchronous only (no async function inside such a literal).
 */
export function markOptionalEntries(node: EngineNode, indexes: ReadonlySet<number>): void {
  (node as MarkedNode)[OPTIONAL_ENTRIES] = indexes;
  const macro: EntriesMacro = { node, optional: indexes, async: false, typeCheck, evaluate };
  node.setMeta('macro' as never, macro as never);
  node.setMeta('async', false);
}

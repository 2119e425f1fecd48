import { Optional } from '@marcbachmann/cel-js';
import { Duration, UnsignedInt } from '@marcbachmann/cel-js/evaluator';
import type {
  EngineChecker,
  EngineEvaluator,
  EngineNode,
  EngineScope,
  EngineType,
  EngineTypeChecker,
} from './engine-internals.js';

/**
 * Field selection and indexing (`x.f`, `x[i]`, `x.?f`, `x[?i]`) where cel-go differs from the
 * engine:
 *
 * - on an optional operand (`optional.of(m).c`, `optional.none()[0]`, `m.?a.b`): cel-go's
 *   optional chaining. The result is optional: none when the operand is none; when it holds a
 *   value, the value's entry (a map key or a set object field; a list index in range) or none when
 *   absent. Selecting from a value that has no fields or entries (`0`, `null`) fails (`no such
 *   key`), where the engine answered none;
 * - a list indexed by a dynamic `uint` (`[7, 8, 9][dyn(0u)]`), which cel-go allows.
 *
 * - `x.?f`, and `x.f` on an optional `x`, of an object type without field `f`: cel-go's
 *   `undefined field` compile error (the engine typed it `dyn`).
 *
 * The decision is made when the node type-checks: a node that needs neither goes back to the
 * engine's own evaluation, so common selections cost nothing more.
 */

type Checker = EngineTypeChecker;

interface Evaluator extends EngineEvaluator {
  debugType(v: unknown): { fieldLazy(v: unknown, key: unknown, node: EngineNode, ev: EngineEvaluator): unknown };
}

interface Meta {
  readonly check: (chk: EngineChecker, node: EngineNode, scope: EngineScope) => EngineType;
  readonly evaluate: (ev: EngineEvaluator, node: EngineNode, scope: EngineScope) => unknown;
}

type Mode = 'engine' | 'optional' | 'dynamic-index';

const isIndex = (node: EngineNode) => node.op === '[]' || node.op === '[?]';

/** Whether `v` has no entries or fields to select: selecting from it fails even in optional chaining. */
function isScalar(v: unknown): boolean {
  if (typeof v !== 'object' || v === null) return true;
  return (
    v instanceof UnsignedInt ||
    v instanceof Uint8Array ||
    v instanceof Date ||
    v instanceof Duration ||
    v instanceof Optional
  );
}

function listIndex(key: unknown): number | undefined {
  if (typeof key === 'bigint') return Number(key);
  if (key instanceof UnsignedInt) return Number(key.valueOf());
  if (typeof key === 'number' && Number.isInteger(key)) return key;
  return undefined;
}

/** cel-go's qualification of a present value in optional chaining: the entry as an optional. */
function selectPresent(ev: Evaluator, node: EngineNode, value: unknown, key: unknown): Optional {
  if (isScalar(value)) {
    throw ev.createError('no_such_key', `no such key: ${String(key)}`, node);
  }
  if (Array.isArray(value) || value instanceof Set) {
    const i = listIndex(key);
    if (i === undefined) throw ev.createError('invalid_index_type', 'unsupported index type', node);
    const items = Array.isArray(value) ? value : [...value];
    return i >= 0 && i < items.length ? Optional.of(items[i]) : Optional.none();
  }
  const found = value instanceof Map ? value.get(key) : ev.debugType(value).fieldLazy(value, key, node, ev);
  return found === undefined ? Optional.none() : Optional.of(found);
}

function selectOptional(ev: Evaluator, node: EngineNode, operand: unknown, key: unknown): unknown {
  if (!(operand instanceof Optional)) return selectPresent(ev, node, operand, key);
  return operand.hasValue() ? selectPresent(ev, node, operand.value(), key) : Optional.none();
}

/**
 * cel-go's checker looks the field of `x.?f`, and of `x.f` on an optional `x`, up in the
 * declared fields of the (optional's) object type as it does for plain selection: an undefined
 * field is a compile error (`undefined field 'f'`), where the engine types it `dyn`. Object types
 * without declared fields, maps and `dyn` accept any field.
 */
function checkDeclaredField(chk: Checker, node: EngineNode, scope: EngineScope, operandType: EngineType): void {
  if (isIndex(node)) return;
  const optional = operandType.kind === 'optional';
  if (!optional && node.op !== '.?') return;
  const target = optional ? operandType.valueType : operandType;
  // Throws the engine's `no_such_key` for a field the type lacks (reported as cel-go's `undefined field`).
  if (target?.kind === 'message') chk.checkAccessOnType(node, scope, target, false);
}

/**
 * The macro installed on a selection node (one object per node, its methods shared: compiling
 * an expression installs one on each selection).
 */
class SelectionMacro {
  mode: Mode = 'engine';

  constructor(
    readonly node: EngineNode,
    readonly meta: Meta,
  ) {}

  typeCheck(chk: Checker, macro: SelectionMacro, scope: EngineScope): EngineType {
    const { node, meta } = macro;
    const [operand, key] = node.args as [EngineNode, EngineNode | string];
    const operandType = chk.check(operand, scope);
    checkDeclaredField(chk, node, scope, operandType);
    if (operandType.kind === 'optional') {
      macro.mode = 'optional';
      if (isIndex(node)) chk.check(key as EngineNode, scope);
      const inner = operandType.valueType;
      const entry =
        inner === undefined || inner.kind === 'dyn' || inner.kind === 'param'
          ? chk.dynType
          : chk.checkAccessOnType(node, scope, inner, true);
      return chk.registry.getOptionalType(entry.kind === 'param' ? chk.dynType : entry);
    }
    const type = meta.check(chk, node, scope);
    if (node.op === '[]' && (operandType.kind === 'list' || operandType.kind === 'dyn')) {
      if ((key as EngineNode).checkedType?.kind === 'dyn') {
        macro.mode = 'dynamic-index';
        return type;
      }
    }
    macro.mode = 'engine';
    // Not needed: the engine evaluates the node itself (a wrapper, as for unchecked programs, still calls `evaluate`).
    node.setMeta('macro' as never, undefined as never);
    return type;
  }

  evaluate(ev: Evaluator, macro: SelectionMacro, scope: EngineScope): unknown {
    const { node, meta } = macro;
    if (macro.mode === 'engine') return meta.evaluate(ev, node, scope);
    const [operandNode, keyNode] = node.args as [EngineNode, EngineNode | string];
    const operand = ev.run(operandNode, scope);
    const key = isIndex(node) ? ev.run(keyNode as EngineNode, scope) : keyNode;
    if (operand instanceof Promise || key instanceof Promise) {
      return Promise.all([operand, key]).then(([o, k]) => macro.#apply(ev, o, k));
    }
    return macro.#apply(ev, operand, key);
  }

  #apply(ev: Evaluator, operand: unknown, key: unknown): unknown {
    const node = this.node;
    if (this.mode === 'optional') return selectOptional(ev, node, operand, key);
    const index =
      key instanceof UnsignedInt && (Array.isArray(operand) || operand instanceof Set) ? key.valueOf() : key;
    return (node as EngineNode & { handle: (a: unknown, b: unknown, n: EngineNode, e: unknown) => unknown }).handle(
      operand,
      index,
      node,
      ev,
    );
  }
}

/** Makes the selection or index `node` (`.`, `[]`, `.?`, `[?]`) follow cel-go (see the module comment). */
export function markSelection(node: EngineNode): void {
  const meta = (node as EngineNode & { readonly meta: Meta }).meta;
  node.setMeta('macro' as never, new SelectionMacro(node, meta) as never);
}

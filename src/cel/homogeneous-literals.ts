import { TypeError as EngineTypeError } from '@marcbachmann/cel-js';
import type { EngineNode, EngineType } from './engine-internals.js';
import { optionalEntriesOf } from './optional-entries.js';

/**
 * kube-apiserver's homogeneous aggregate literals (cel-go's `HomogeneousAggregateLiterals`): the
 * elements of a list literal, and the keys and the values of a map literal, must have types
 * assignable to one another. `dyn` is assignable to and from every type (`[1, dyn('a')]` and
 * `[object.x, 'y']` compile, as list(dyn)), `[1, 'a']` does not. The arguments of `format` are
 * exempt, as in kube. The engine's own check rejects any difference, `dyn` included, so it is
 * off and this check runs on the checked tree instead (from the walk in input-access.ts).
 */

/** Whether a value of type `b` may join a literal whose elements so far have type `a` (cel-go's `isAssignable`). */
function assignable(a: EngineType | undefined, b: EngineType | undefined): boolean {
  if (a === undefined || b === undefined || a === b || a.name === b.name) return true;
  if (a.kind === 'dyn' || b.kind === 'dyn' || a.kind === 'param' || b.kind === 'param') return true;
  if (a.kind !== b.kind) return false;
  if (a.kind === 'list' || a.kind === 'optional') return assignable(a.valueType, b.valueType);
  if (a.kind === 'map') return assignable(a.keyType, b.keyType) && assignable(a.valueType, b.valueType);
  return false;
}

/** Whether `t` has `dyn` (or an unbound type parameter) anywhere in it. */
function hasDyn(t: EngineType | undefined): boolean {
  if (t === undefined) return false;
  return t.kind === 'dyn' || t.kind === 'param' || hasDyn(t.keyType) || hasDyn(t.valueType);
}

/** The more general of two assignable types: the one with `dyn` in it, else the first. */
function mostGeneral(a: EngineType, b: EngineType): EngineType {
  return !hasDyn(a) && hasDyn(b) ? b : a;
}

const PREFIX = {
  heterogeneous_list_element: 'List elements must have the same type,',
  heterogeneous_map_key: 'Map key uses wrong type,',
  heterogeneous_map_value: 'Map value uses wrong type,',
} as const;

function join(nodes: readonly EngineNode[], code: keyof typeof PREFIX, optional?: ReadonlySet<number>): void {
  let joined: EngineType | undefined;
  for (let i = 0; i < nodes.length; i++) {
    const node = nodes[i];
    // An optional entry (`[?x]`, `{k: ?v}`) contributes the type of its value.
    const t = optional?.has(i) && node.checkedType?.kind === 'optional' ? node.checkedType.valueType : node.checkedType;
    if (t === undefined) continue;
    if (joined === undefined) joined = t;
    else if (assignable(joined, t)) joined = mostGeneral(joined, t);
    else {
      throw new EngineTypeError({
        code,
        message: `${PREFIX[code]} expected type '${joined.name}' but found '${t.name}'`,
        node,
      } as never);
    }
  }
}

/**
 * Throws the engine's type error (for `compileErrorFrom`) at the first element of the list or
 * map literal `node` that does not fit; its inner literals are the caller's to check first.
 */
export function checkHomogeneousLiteral(node: EngineNode): void {
  const optional = optionalEntriesOf(node);
  if (node.op === 'list') join(node.args as readonly EngineNode[], 'heterogeneous_list_element', optional);
  else if (node.op === 'map') {
    const entries = node.args as readonly (readonly [EngineNode, EngineNode])[];
    join(
      entries.map((e) => e[0]),
      'heterogeneous_map_key',
    );
    join(
      entries.map((e) => e[1]),
      'heterogeneous_map_value',
      optional,
    );
  }
}

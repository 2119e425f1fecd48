import type { EngineEvaluator, EngineNode } from './engine-internals.js';
import { celEquals } from './library/cel-values.js';

/**
 * cel-go's heterogeneous equality where the engine finds no overload at run time: `==` of two
 * values of different types is `false` (`!=` is `true`), numbers compare by value across `int`,
 * `uint` and `double` (`dyn(1) == 1.0`), lists and maps element by element. The engine decides
 * `==` on `dyn` operands by their run-time types and fails when it has no overload for the pair.
 * Only comparisons the checker left to run time (an operand of type `dyn`) change.
 */

type Handle = (left: unknown, right: unknown, ast: EngineNode, ev: EngineEvaluator) => unknown;

interface EqualityNode extends EngineNode {
  handle?: Handle;
}

/** Makes the run-time dispatch of the `==` or `!=` node `node` fall back to CEL equality. */
export function relaxEquality(node: EngineNode): void {
  const n = node as EqualityNode;
  const engine = n.handle;
  if (engine?.name !== 'handleBinary') return;
  const negate = node.op === '!=';
  n.handle = (l, r, ast, ev) => {
    try {
      return engine(l, r, ast, ev);
    } catch (e) {
      if ((e as { code?: string }).code !== 'no_such_overload') throw e;
      return celEquals(l, r) !== negate;
    }
  };
}

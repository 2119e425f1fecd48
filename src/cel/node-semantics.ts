import { forEachNode } from './ast-walk.js';
import type { EngineChecker, EngineNode, EngineType } from './engine-internals.js';
import { markMapLiteral } from './map-literals.js';
import { optionalEntriesOf } from './optional-entries.js';
import { markSelection } from './selection-semantics.js';

/**
 * Per-node semantics of cel-go installed on a freshly parsed expression, before it is checked:
 *
 * - map literals build as cel-go builds them (map-literals.ts);
 * - selections and indexes follow cel-go on optional operands and dynamic `uint` list indexes
 *   (selection-semantics.ts); a selection from a chain of fields of a variable that never holds
 *   an optional value is left to the engine (most selections in kube's rules: `self.spec.x`);
 * - an empty list or map literal that is the range of a comprehension macro (`[].all(e, e > 0)`)
 *   has elements of type `dyn`: the engine typed them with a type parameter, which no overload of
 *   `e > 0` resolved unambiguously (cel-go resolves the parameter; the result is the same, as
 *   the range is empty).
 */

/** Comprehension macros: a receiver that is an empty literal is their range. */
const COMPREHENSIONS = new Set([
  'all',
  'exists',
  'exists_one',
  'existsOne',
  'map',
  'filter',
  'transformList',
  'transformMap',
  'transformMapEntry',
]);

interface Checker extends EngineChecker {
  getType(name: string): EngineType;
}

function isEmptyLiteral(node: EngineNode | undefined): node is EngineNode {
  return (node?.op === 'list' || node?.op === 'map') && (node.args as readonly unknown[]).length === 0;
}

/** Types the empty literal `node` with `dyn` elements (and keys). */
function markDynamicEmptyLiteral(node: EngineNode): void {
  const list = node.op === 'list';
  node.setMeta(
    'macro' as never,
    {
      async: false,
      typeCheck: (chk: Checker) => chk.getType(list ? 'list<dyn>' : 'map<dyn, dyn>'),
      evaluate: () => (list ? [] : {}),
    } as never,
  );
}

/** What the installation needs to know of the environment. */
export interface NodeSemanticsOptions {
  /** Whether optional types are on: without them no value is optional. */
  readonly optionalTypes: boolean;
  /** Variables that never hold an optional value at any depth (a chain of fields from one needs no check). */
  readonly optionalFreeVariables: ReadonlySet<string>;
}

/** Whether `node` is a chain of field selections from a variable that never holds an optional value. */
function isOptionalFreeChain(node: EngineNode, optionalFree: ReadonlySet<string>): boolean {
  let n = node;
  while (n.op === '.') n = (n.args as readonly EngineNode[])[0];
  return n.op === 'id' && optionalFree.has(n.args as string);
}

/** Installs the semantics on every node of `ast` (see the module comment). */
export function applyNodeSemantics(ast: EngineNode, options: NodeSemanticsOptions): void {
  const { optionalTypes, optionalFreeVariables } = options;
  forEachNode(ast, (node) => {
    switch (node.op) {
      case 'map':
        if ((node.args as readonly unknown[]).length > 0 && optionalEntriesOf(node) === undefined) {
          markMapLiteral(node);
        }
        break;
      case '.':
      case '.?':
      case '[?]': {
        const operand = (node.args as readonly EngineNode[])[0];
        if (optionalTypes && !isOptionalFreeChain(operand, optionalFreeVariables)) markSelection(node);
        break;
      }
      case '[]':
        markSelection(node);
        break;
      case 'rcall': {
        const [name, receiver] = node.args as [string, EngineNode];
        if (COMPREHENSIONS.has(name) && isEmptyLiteral(receiver)) markDynamicEmptyLiteral(receiver);
        break;
      }
    }
  });
}

import { forEachNode } from './ast-walk.js';
import type { EngineNode, EngineTypeChecker } from './engine-internals.js';
import { markMapLiteral } from './map-literals.js';
import { optionalEntriesOf } from './optional-entries.js';
import { markSelection } from './selection-semantics.js';

/**
 * Per-node semantics of cel-go installed on a freshly parsed expression, before it is checked:
 *
 * - map literals build as cel-go builds them (map-literals.ts);
 * - selections and indexes follow cel-go on optional operands and dynamic `uint` list indexes
 *   (selection-semantics.ts), and `x.?f` on object types as cel-go types it; a selection `.`
 *   from a chain of fields of a variable that never holds an optional value (and that no macro
 *   of the expression rebinds) is left to the engine (most selections in kube's rules:
 *   `self.spec.x`);
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

type Checker = EngineTypeChecker;

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

const NO_NAMES: ReadonlySet<string> = new Set();

/** What the installation needs to know of the environment. */
export interface NodeSemanticsOptions {
  /** Whether optional types are on: without them no value is optional. */
  readonly optionalTypes: boolean;
  /** Variables that never hold an optional value at any depth (a chain of fields from one needs no check). */
  readonly optionalFreeVariables: ReadonlySet<string>;
}

/** Macros that bind variables (`x` of `all(x, ...)`, `k` and `v` of `all(k, v, ...)`, `cel.bind(x, ...)`). */
const BINDING_MACROS = new Set([...COMPREHENSIONS, 'bind', 'optMap', 'optFlatMap']);

/** Whether `node` is a chain of field selections from a variable that never holds an optional value. */
function isOptionalFreeChain(node: EngineNode, optionalFree: ReadonlySet<string>): boolean {
  let n = node;
  while (n.op === '.') n = (n.args as readonly EngineNode[])[0];
  return n.op === 'id' && optionalFree.has(n.args as string);
}

/**
 * The variables of `optionalFree` that `ast` does not rebind: a macro's variable of the same
 * name (`self.all(self, ...)`) has its own type, which may be optional, so inside the macro a
 * chain from it is checked like any other (by its type, as the scope gives it).
 */
function optionalFreeIn(ast: EngineNode, optionalFree: ReadonlySet<string>): ReadonlySet<string> {
  if (optionalFree.size === 0) return optionalFree;
  let free = optionalFree;
  forEachNode(ast, (node) => {
    if (node.op !== 'rcall' && node.op !== 'call') return;
    const args = node.args as readonly unknown[];
    if (!BINDING_MACROS.has(args[0] as string)) return;
    const callArgs = (node.op === 'call' ? args[1] : args[2]) as readonly EngineNode[] | undefined;
    for (const bound of callArgs?.slice(0, 2) ?? []) {
      if (bound?.op !== 'id' || !free.has(bound.args as string)) continue;
      if (free === optionalFree) free = new Set(optionalFree);
      (free as Set<string>).delete(bound.args as string);
    }
  });
  return free;
}

/** Installs the semantics on every node of `ast` (see the module comment). */
export function applyNodeSemantics(ast: EngineNode, options: NodeSemanticsOptions): void {
  const { optionalTypes } = options;
  const optionalFreeVariables = optionalTypes ? optionalFreeIn(ast, options.optionalFreeVariables) : NO_NAMES;
  forEachNode(ast, (node) => {
    switch (node.op) {
      case 'map':
        if ((node.args as readonly unknown[]).length > 0 && optionalEntriesOf(node) === undefined) {
          markMapLiteral(node);
        }
        break;
      case '.':
      case '[?]': {
        const operand = (node.args as readonly EngineNode[])[0];
        if (optionalTypes && !isOptionalFreeChain(operand, optionalFreeVariables)) markSelection(node);
        break;
      }
      case '.?':
        // Always: the field is looked up in the operand's object type (selection-semantics.ts).
        if (optionalTypes) markSelection(node);
        break;
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

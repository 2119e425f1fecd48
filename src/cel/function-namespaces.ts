/**
 * The identifiers that name a namespace of functions rather than a value (`sets.contains(...)`,
 * `optional.of(...)`, `strings.quote(...)`, `format.named(...)`, `ip.isCanonical(...)`) or of
 * type names (`net.IP`), with the type the engine gives each. cel-go resolves `sets.contains` to
 * one function name, so the namespace is no variable read: the cost estimator charges nothing for
 * it. The libraries declare their namespaces with these type names.
 */
export const NAMESPACE_TYPES = Object.freeze({
  optional: 'OptionalNamespace',
  sets: 'cel.lib.ext.SetsFunctions',
  strings: 'cel.lib.ext.StringsFunctions',
  format: 'kubernetes.FormatFunctions',
  ip: 'kubernetes.net.IPFunctions',
  net: 'kubernetes.net.TypeNames',
});

const TYPE_NAMES: ReadonlySet<string> = new Set(Object.values(NAMESPACE_TYPES));
const NAMES: ReadonlySet<string> = new Set(Object.keys(NAMESPACE_TYPES));

/** The parts of a syntax tree node the test reads. */
interface Node {
  readonly op: string;
  readonly args: unknown;
  readonly checkedType?: { readonly name: string };
}

/**
 * Whether `node` is an identifier naming a function namespace: by its checked type (a macro
 * variable of the same name, `[1].all(ip, ip > 0)`, has its own type), or by its name in a tree
 * that was not type-checked.
 */
export function isFunctionNamespace(node: Node): boolean {
  if (node.op !== 'id') return false;
  const type = node.checkedType;
  return type === undefined ? NAMES.has(node.args as string) : TYPE_NAMES.has(type.name);
}

/**
 * Property names in CEL expressions, as kube-apiserver exposes schema properties: a property is
 * accessible only when its name matches `[a-zA-Z_.-/][a-zA-Z0-9_.-/]*`; in an expression `__`
 * is written `__underscores__`, `.` `__dot__`, `-` `__dash__`, `/` `__slash__`, and a name equal
 * to a CEL reserved word `__<word>__`.
 */

/**
 * The reserved symbols of the CEL grammar, which no identifier may be. `namespace` is one of
 * them, so a property named `namespace` is written `__namespace__`.
 */
const RESERVED_WORDS: ReadonlySet<string> = new Set([
  'true',
  'false',
  'null',
  'in',
  'as',
  'break',
  'const',
  'continue',
  'else',
  'for',
  'function',
  'if',
  'import',
  'let',
  'loop',
  'package',
  'namespace',
  'return',
  'var',
  'void',
  'while',
]);

const ACCESSIBLE = /^[a-zA-Z_./-][a-zA-Z0-9_./-]*$/;
/** Leftmost first: `__` is matched before a lone `_` can start another pair (`___` → `__underscores___`). */
const TO_ESCAPE = /__|[./-]/g;
const ESCAPES: Readonly<Record<string, string>> = {
  __: '__underscores__',
  '.': '__dot__',
  '-': '__dash__',
  '/': '__slash__',
};

/**
 * The CEL identifier under which property `name` is accessible, or `undefined` when the name
 * is not accessible from CEL (empty, starting with a digit, or holding another character).
 */
export function escapeCelName(name: string): string | undefined {
  if (!ACCESSIBLE.test(name)) return undefined;
  if (RESERVED_WORDS.has(name)) return `__${name}__`;
  return name.replace(TO_ESCAPE, (s) => ESCAPES[s]);
}

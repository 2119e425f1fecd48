import { EvaluationError } from '@marcbachmann/cel-js';
import type { CelLibrary } from '../cel-library.js';
import { NAMESPACE_TYPES } from '../function-namespaces.js';
import { celError, registerFunctions } from './cel-values.js';
import { FormatError, formatCelString } from './string-format.js';

/** The type of the `strings` identifier that carries `strings.quote(<string>)`. */
const STRINGS_FUNCTIONS = NAMESPACE_TYPES.strings;

class StringsFunctions {}

/** The character (code point) at `i`; `''` at the end; an error past it or below 0. */
function charAt(s: string, i: bigint): string {
  const chars = [...s];
  if (i < 0n || i > BigInt(chars.length)) throw celError(`index out of range: ${i}`);
  return i === BigInt(chars.length) ? '' : chars[Number(i)];
}

/**
 * Go's `strings.Replace`: the first `n` non-overlapping occurrences (all when `n < 0`); an
 * empty `old` matches before every character and at the end.
 */
function replace(s: string, old: string, replacement: string, n: bigint): string {
  if (n === 0n || old === replacement) return s;
  let out = '';
  let done = 0n;
  if (old === '') {
    const chars = [...s];
    for (const c of chars) {
      out += n < 0n || done < n ? replacement + c : c;
      done++;
    }
    return n < 0n || done < n ? out + replacement : out;
  }
  let from = 0;
  while (n < 0n || done < n) {
    const at = s.indexOf(old, from);
    if (at < 0) break;
    out += s.slice(from, at) + replacement;
    from = at + old.length;
    done++;
  }
  return out + s.slice(from);
}

const QUOTE_ESCAPES: Readonly<Record<string, string>> = {
  '\x07': '\\a',
  '\b': '\\b',
  '\f': '\\f',
  '\n': '\\n',
  '\r': '\\r',
  '\t': '\\t',
  '\v': '\\v',
  '\\': '\\\\',
  '"': '\\"',
};

/** cel-go's `strings.quote`: a double-quoted CEL string literal (other characters kept as is). */
function quote(s: string): string {
  let out = '"';
  for (const c of s) {
    // A lone surrogate cannot be encoded: Go's sanitize writes U+FFFD in its place.
    const cp = c.codePointAt(0) as number;
    out += cp >= 0xd800 && cp <= 0xdfff ? '\ufffd' : (QUOTE_ESCAPES[c] ?? c);
  }
  return `${out}"`;
}

/** The engine's view of an expression node and of a type, as far as the macro below needs. */
interface Node {
  readonly op: string;
  readonly args: unknown;
}
interface CheckedType {
  readonly kind: string;
  readonly name: string;
}
interface Checker {
  readonly opts: { readonly homogeneousAggregateLiterals: boolean };
  check(node: Node, ctx: unknown): CheckedType;
  getType(name: string): CheckedType;
  createError(code: string, message: string, node: Node): Error;
}
interface Evaluator {
  run(node: Node, ctx: unknown): unknown;
}
interface FormatMacro {
  readonly ast: Node;
  readonly receiver: Node;
  readonly arg: Node;
}

/**
 * The checker, with mixed-type list and map literals allowed: kube exempts the literals inside
 * `format`'s argument from the homogeneous-literal rule (cel-go's exempt functions), nested ones
 * included. The engine reads the rule from the checker's options as it checks each literal.
 */
function lenient(checker: Checker): Checker {
  return Object.create(checker, { opts: { value: { ...checker.opts, homogeneousAggregateLiterals: false } } });
}

/**
 * `<string>.format(<list>)` is a macro so that a list literal argument may mix types, as in
 * kube: its elements are type-checked on their own, leniently. Otherwise it checks and runs as a
 * function of a string and a list.
 */
function formatMacro({ ast, args, receiver }: { ast: Node; args: Node[]; receiver: Node }) {
  return {
    ast,
    receiver,
    arg: args[0],
    async: false,
    typeCheck(checker: Checker, m: FormatMacro, ctx: unknown): CheckedType {
      const target = checker.check(m.receiver, ctx);
      let arg: CheckedType | undefined;
      if (m.arg.op === 'list') {
        const elementChecker = lenient(checker);
        for (const element of m.arg.args as Node[]) elementChecker.check(element, ctx);
      } else {
        arg = checker.check(m.arg, ctx);
      }
      const targetOk = target.kind === 'dyn' || target.name === 'string';
      if (!targetOk || (arg !== undefined && arg.kind !== 'dyn' && arg.kind !== 'list')) {
        const argName = arg?.name ?? 'list';
        throw checker.createError(
          'no_matching_overload',
          `found no matching overload for '${target.name}.format(${argName})'`,
          m.ast,
        );
      }
      return checker.getType('string');
    },
    evaluate(ev: Evaluator, m: FormatMacro, ctx: unknown): string {
      const target = ev.run(m.receiver, ctx);
      const list = ev.run(m.arg, ctx);
      if (typeof target !== 'string' || !(Array.isArray(list) || list instanceof Set)) {
        throw new EvaluationError('no such overload', m.ast as never);
      }
      try {
        return formatCelString(target, list);
      } catch (err) {
        if (err instanceof FormatError) throw new EvaluationError(err.message, m.ast as never);
        throw err;
      }
    },
  };
}

/**
 * cel-go's `ext.Strings` at version 2 (cel-go v0.22, kube-apiserver v1.32's environment), the
 * functions the engine lacks: `<string>.charAt(<int>)`, `<string>.replace(<old>, <new>[, <n>])`,
 * `<string>.format(<list>)` and `strings.quote(<string>)`. The engine already provides
 * `indexOf`, `lastIndexOf`, `lowerAscii`, `upperAscii`, `split`, `substring`, `trim` and `join`
 * (see the tests for where they differ from cel-go). `reverse` is version 3, not in v1.32.
 */
export const stringsLibrary: CelLibrary = {
  name: 'cel.lib.ext.strings',
  register(env) {
    env.registerType(STRINGS_FUNCTIONS, { ctor: StringsFunctions, fields: {} });
    env.registerConstant('strings', STRINGS_FUNCTIONS, new StringsFunctions());
    registerFunctions(env, [
      ['string.charAt(int): string', charAt],
      ['string.replace(string, string): string', (s: string, o: string, r: string) => replace(s, o, r, -1n)],
      ['string.replace(string, string, int): string', replace],
      ['string.format(ast): string', formatMacro],
      [`${STRINGS_FUNCTIONS}.quote(string): string`, (_: StringsFunctions, s: string) => quote(s)],
    ]);
  },
};

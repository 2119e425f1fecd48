import { type Environment, ParseError, type ParseResult } from '@marcbachmann/cel-js';
import { forEachNode } from './ast-walk.js';
import type { EngineNode } from './engine-internals.js';
import { applyNodeSemantics } from './node-semantics.js';
import { markOptionalEntries } from './optional-entries.js';

/**
 * CEL syntax the engine's parser lacks, rewritten into text it parses, keeping every offset: each
 * construct is replaced by text of the same length, and what the replacement lost is put back
 * into the parsed tree (see {@link applyFixups}). Errors the engine reports therefore point at
 * the right column of the original expression.
 *
 * - bytes literals with a raw prefix (`br'\d'`, `Rb"..."`) and bytes literals holding non-ASCII
 *   text (`b'ÿ'` is the two UTF-8 bytes of `ÿ`; the engine keeps one byte per UTF-16 unit): an
 *   empty-looking string literal of the same length, whose value becomes the bytes;
 * - backquoted field names (`a.\`b-c\``, also inside `has()`): a placeholder identifier of the
 *   same length, renamed back in the selection node;
 * - a double with no digit before the point (`.99`, `.5e3`): `0` for the point, the value put back;
 * - optional entries of list and map literals (`[?x, y]`, `{?k: v}`): the `?` becomes a blank and
 *   the entry is marked, for optional-entries.ts.
 *
 * Only expressions holding a trigger character are scanned (see {@link needsRewrite}).
 */

/** What the rewritten text lost, by the UTF-16 offset where the parsed node starts. */
export interface SourceFixups {
  /** Literal values (bytes, doubles) by the start offset of their literal. */
  readonly values: ReadonlyMap<number, unknown>;
  /** Backquoted field names by their placeholder identifier. */
  readonly fields: ReadonlyMap<string, string>;
  /** Start offsets of the expressions of optional entries (the element, or the map key). */
  readonly optionalEntries: ReadonlySet<number>;
}

export interface RewrittenSource {
  readonly text: string;
  readonly fixups: SourceFixups;
}

/** Whether `expression` may hold a construct to rewrite: a cheap test before the scan. */
export function needsRewrite(expression: string): boolean {
  return (
    expression.includes('`') ||
    expression.includes('?') ||
    /\.\d/.test(expression) ||
    /[bB][rR]?['"]|[rR][bB]['"]/.test(expression)
  );
}

const isIdent = (c: string | undefined) => c !== undefined && /[A-Za-z0-9_]/.test(c);
const isBlank = (c: string | undefined) => c === ' ' || c === '\t' || c === '\n' || c === '\r' || c === '\f';

function syntaxError(input: string, at: number, message: string): never {
  throw new ParseError(message, { pos: at, start: at, end: at + 1, input } as never);
}

/** Rewrites `expression` (see the module comment); `undefined` when nothing needed it. */
export function rewriteSource(expression: string): RewrittenSource | undefined {
  const out = expression.split('');
  const values = new Map<number, unknown>();
  const fields = new Map<string, string>();
  const optionalEntries = new Set<number>();
  let changed = false;
  /** Open brackets: `list` literal, `index`, `map` literal or `paren`. */
  const stack: string[] = [];
  /** The last significant character before `i` (outside comments and blanks). */
  let previous = '';
  let previousEndsOperand = false;
  let i = 0;
  const n = expression.length;
  while (i < n) {
    const c = expression[i];
    if (isBlank(c)) {
      i++;
      continue;
    }
    if (c === '/' && expression[i + 1] === '/') {
      while (i < n && expression[i] !== '\n') i++;
      continue;
    }
    // String and bytes literals, with up to two prefix letters.
    const literal = readLiteral(expression, i);
    if (literal) {
      if (literal.bytes && (literal.raw || /[^ -~\t\n\r]/.test(literal.body))) {
        const bytes = literal.raw ? new TextEncoder().encode(literal.body) : decodeBytes(expression, literal);
        for (let k = i; k < literal.end; k++) out[k] = ' ';
        out[i] = "'";
        out[literal.end - 1] = "'";
        values.set(i, bytes);
        changed = true;
      }
      i = literal.end;
      previous = "'";
      previousEndsOperand = true;
      continue;
    }
    if (isIdent(c)) {
      let j = i;
      while (j < n && isIdent(expression[j])) j++;
      // A number's exponent sign belongs to it (`1e-3`).
      if (/^\d/.test(c) && /[eE]$/.test(expression.slice(i, j)) && /[+-]/.test(expression[j] ?? '')) {
        j++;
        while (j < n && isIdent(expression[j])) j++;
      }
      // `1.5`: the point and the digits after it are the number's.
      if (/^\d+$/.test(expression.slice(i, j)) && expression[j] === '.' && /\d/.test(expression[j + 1] ?? '')) {
        j++;
        while (j < n && (isIdent(expression[j]) || (/[+-]/.test(expression[j]) && /[eE]/.test(expression[j - 1])))) {
          j++;
        }
      }
      i = j;
      previous = 'a';
      previousEndsOperand = true;
      continue;
    }
    if (c === '.' && /\d/.test(expression[i + 1] ?? '')) {
      let j = i + 1;
      while (j < n && /\d/.test(expression[j])) j++;
      if (/[eE]/.test(expression[j] ?? '')) {
        let k = j + 1;
        if (/[+-]/.test(expression[k] ?? '')) k++;
        if (/\d/.test(expression[k] ?? '')) {
          j = k;
          while (j < n && /\d/.test(expression[j])) j++;
        }
      }
      out[i] = '0';
      values.set(i, Number(expression.slice(i, j)));
      changed = true;
      i = j;
      previous = '0';
      previousEndsOperand = true;
      continue;
    }
    if (c === '`') {
      const close = expression.indexOf('`', i + 1);
      if (close < 0 || close === i + 1) syntaxError(expression, i, 'Unterminated or empty quoted identifier');
      const name = expression.slice(i + 1, close);
      const placeholder = placeholderFor(expression, close + 1 - i, fields.size);
      fields.set(placeholder, name);
      for (let k = 0; k < placeholder.length; k++) out[i + k] = placeholder[k];
      changed = true;
      i = close + 1;
      previous = 'a';
      previousEndsOperand = true;
      continue;
    }
    if (c === '?' && (previous === '[' || previous === '{' || previous === ',')) {
      const top = stack[stack.length - 1];
      if (top === 'list' || top === 'map') {
        out[i] = ' ';
        let j = i + 1;
        while (j < n && isBlank(expression[j])) j++;
        optionalEntries.add(j);
        changed = true;
        i++;
        continue;
      }
    }
    if (c === '[') stack.push(previousEndsOperand ? 'index' : 'list');
    else if (c === '{') stack.push('map');
    else if (c === '(') stack.push('paren');
    else if (c === ']' || c === '}' || c === ')') stack.pop();
    previous = c;
    previousEndsOperand = c === ']' || c === '}' || c === ')';
    i++;
  }
  return changed ? { text: out.join(''), fixups: { values, fields, optionalEntries } } : undefined;
}

interface Literal {
  readonly end: number;
  readonly bytes: boolean;
  readonly raw: boolean;
  /** Text between the quotes. */
  readonly body: string;
  readonly bodyStart: number;
}

function readLiteral(s: string, at: number): Literal | undefined {
  if (isIdent(s[at - 1])) return undefined;
  let j = at;
  let bytes = false;
  let raw = false;
  while (j - at < 2 && /[bBrR]/.test(s[j] ?? '')) {
    if (/[bB]/.test(s[j])) {
      if (bytes) return undefined;
      bytes = true;
    } else {
      if (raw) return undefined;
      raw = true;
    }
    j++;
  }
  const q = s[j];
  if (q !== '"' && q !== "'") return undefined;
  const triple = s[j + 1] === q && s[j + 2] === q;
  const open = triple ? 3 : 1;
  let k = j + open;
  while (k < s.length) {
    if (s[k] === '\\' && !raw) {
      k += 2;
      continue;
    }
    if (triple ? s.startsWith(q.repeat(3), k) : s[k] === q) {
      return { end: k + open, bytes, raw, body: s.slice(j + open, k), bodyStart: j + open };
    }
    if (!triple && (s[k] === '\n' || s[k] === '\r')) return undefined; // the engine reports it
    k++;
  }
  return undefined;
}

const SIMPLE_ESCAPES: Readonly<Record<string, number>> = {
  '\\': 0x5c,
  '?': 0x3f,
  '"': 0x22,
  "'": 0x27,
  '`': 0x60,
  a: 0x07,
  b: 0x08,
  f: 0x0c,
  n: 0x0a,
  r: 0x0d,
  t: 0x09,
  v: 0x0b,
};

/** The bytes of a (non-raw) bytes literal: escapes as single bytes, other text as UTF-8. */
function decodeBytes(input: string, literal: Literal): Uint8Array {
  const out: number[] = [];
  const body = literal.body;
  const encoder = new TextEncoder();
  let i = 0;
  while (i < body.length) {
    const c = body[i];
    if (c !== '\\') {
      const cp = body.codePointAt(i) as number;
      const ch = String.fromCodePoint(cp);
      out.push(...encoder.encode(ch));
      i += ch.length;
      continue;
    }
    const e = body[i + 1];
    const at = literal.bodyStart + i;
    if (e !== undefined && SIMPLE_ESCAPES[e] !== undefined) {
      out.push(SIMPLE_ESCAPES[e]);
      i += 2;
    } else if ((e === 'x' || e === 'X') && /^[0-9a-fA-F]{2}$/.test(body.slice(i + 2, i + 4))) {
      out.push(Number.parseInt(body.slice(i + 2, i + 4), 16));
      i += 4;
    } else if (/^[0-3][0-7]{2}$/.test(body.slice(i + 1, i + 4))) {
      out.push(Number.parseInt(body.slice(i + 1, i + 4), 8));
      i += 4;
    } else {
      syntaxError(input, at, `Invalid escape sequence in bytes literal: \\${e ?? ''}`);
    }
  }
  return Uint8Array.from(out);
}

/** An identifier of `length` characters found nowhere in `expression`, distinct per `index`. */
function placeholderFor(expression: string, length: number, index: number): string {
  for (let attempt = 0; ; attempt++) {
    const stem = `_${(index + attempt * 1000).toString(36)}`;
    const candidate = stem.length <= length ? stem.padEnd(length, '_') : '';
    if (candidate === '') syntaxError(expression, 0, 'Quoted identifier too short to rewrite');
    if (!expression.includes(candidate)) return candidate;
  }
}

/**
 * Parses `expression` with `engine`, rewriting it first when it holds syntax the engine lacks
 * (see the module comment), and installs cel-go's semantics where nodes need them
 * (node-semantics.ts; `optionalFreeVariables` are the environment's variables that never hold
 * an optional value). Parse errors are the engine's, at the original offsets.
 */
export function parseSource(
  engine: Environment,
  expression: string,
  optionalFreeVariables: ReadonlySet<string> = NONE,
): ParseResult {
  const rewritten = needsRewrite(expression) ? rewriteSource(expression) : undefined;
  const parsed = engine.parse(rewritten?.text ?? expression);
  const ast = parsed.ast as unknown as EngineNode;
  if (rewritten !== undefined) applyFixups(ast, rewritten);
  applyNodeSemantics(ast, {
    optionalTypes: engine.opts.enableOptionalTypes === true,
    optionalFreeVariables,
  });
  return parsed;
}

const NONE: ReadonlySet<string> = new Set();

type Writable = { args: unknown };

function applyFixups(ast: EngineNode, { text, fixups }: RewrittenSource): void {
  forEachNode(ast, (node) => {
    switch (node.op) {
      case 'value':
        if (fixups.values.has(node.start)) (node as unknown as Writable).args = fixups.values.get(node.start);
        break;
      case '.':
      case '.?': {
        const args = node.args as unknown[];
        const name = fixups.fields.get(args[1] as string);
        if (name !== undefined) args[1] = name;
        break;
      }
      case 'id':
        if (fixups.fields.has(node.args as string)) {
          syntaxError(text, node.start, 'Quoted identifiers are only allowed as field names');
        }
        break;
      case 'list':
      case 'map': {
        if (fixups.optionalEntries.size === 0) break;
        const entries = node.args as readonly unknown[];
        const marked = new Set<number>();
        for (let i = 0; i < entries.length; i++) {
          const first = (node.op === 'list' ? entries[i] : (entries[i] as readonly unknown[])[0]) as EngineNode;
          if (fixups.optionalEntries.has(first.start)) marked.add(i);
        }
        if (marked.size > 0) markOptionalEntries(node, marked);
        break;
      }
    }
  });
}

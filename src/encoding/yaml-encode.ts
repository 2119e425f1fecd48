/**
 * YAML output byte-identical to kube-apiserver's `application/yaml` responses, which are
 * `sigs.k8s.io/yaml.JSONToYAML(json.Marshal(obj))`, i.e. go-yaml v2's emitter:
 *
 * - map keys sorted in go-yaml's "natural" order (digit runs compared as numbers);
 * - block style, two-space indent, sequences inside a mapping not indented (`- ` under the key);
 * - `{}` and `[]` for empty collections;
 * - strings plain where go-yaml would read them back as strings, else double-quoted
 *   (`"true"`, `"1"`, `"2024-01-01T00:00:00Z"`, `""`), single-quoted when plain is not allowed
 *   (`'a: b'`), literal blocks (`|`, `|-`, `|+`) for multi-line strings;
 * - long plain and quoted scalars folded at column 80.
 *
 * Pure and synchronous.
 */
import { UnsupportedValueError } from './errors.js';
import {
  analyzeScalar,
  formatYamlNumber,
  isBreak,
  isPrintable,
  requestedStringStyle,
  type ScalarStyle,
  selectStyle,
} from './yaml-scalar.js';

const BEST_WIDTH = 80;
const SURROGATE = /[\ud800-\udfff]/;
const BEST_INDENT = 2;
const isLetter = (ch: string): boolean => /\p{L}/u.test(ch);
const isDigit = (ch: string): boolean => /\p{Nd}/u.test(ch);

/** go-yaml v2's `keyList.Less` for two string keys. */
export function yamlKeyLess(a: string, b: string): boolean {
  const ar = Array.from(a);
  const br = Array.from(b);
  for (let i = 0; i < ar.length && i < br.length; i++) {
    if (ar[i] === br[i]) continue;
    const al = isLetter(ar[i]);
    const bl = isLetter(br[i]);
    if (al && bl) return (ar[i].codePointAt(0) as number) < (br[i].codePointAt(0) as number);
    if (al || bl) return bl;
    let an = 0;
    let bn = 0;
    if (ar[i] === '0' || br[i] === '0') {
      for (let j = i - 1; j >= 0 && isDigit(ar[j]); j--) {
        if (ar[j] !== '0') {
          an = 1;
          bn = 1;
          break;
        }
      }
    }
    let ai = i;
    let bi = i;
    for (; ai < ar.length && isDigit(ar[ai]); ai++) an = an * 10 + ((ar[ai].codePointAt(0) as number) - 48);
    for (; bi < br.length && isDigit(br[bi]); bi++) bn = bn * 10 + ((br[bi].codePointAt(0) as number) - 48);
    if (an !== bn) return an < bn;
    if (ai !== bi) return ai < bi;
    return (ar[i].codePointAt(0) as number) < (br[i].codePointAt(0) as number);
  }
  return ar.length < br.length;
}

/**
 * Sorts like Go's `sort.Sort` on go-yaml's `keyList`. The order is not transitive for keys
 * mixing digits and letters (`0x1F` < `1` < `017` < `0x1F`), so the algorithm matters: Go runs
 * an insertion sort on up to 12 elements, which this repeats; longer lists use a stable sort.
 */
function sortKeys(keys: string[]): void {
  if (keys.length > 12) {
    keys.sort((a, b) => (yamlKeyLess(a, b) ? -1 : yamlKeyLess(b, a) ? 1 : 0));
    return;
  }
  for (let i = 1; i < keys.length; i++) {
    for (let j = i; j > 0 && yamlKeyLess(keys[j], keys[j - 1]); j--) {
      const t = keys[j];
      keys[j] = keys[j - 1];
      keys[j - 1] = t;
    }
  }
}

const ESCAPES: Readonly<Record<number, string>> = {
  0: '0',
  7: 'a',
  8: 'b',
  9: 't',
  10: 'n',
  11: 'v',
  12: 'f',
  13: 'r',
  27: 'e',
  34: '"',
  92: '\\',
  133: 'N',
  160: '_',
  8232: 'L',
  8233: 'P',
};

interface NodeContext {
  readonly root: boolean;
  readonly mapping: boolean;
  readonly simpleKey: boolean;
}

/** A port of the parts of libyaml's emitter that JSON documents exercise. */
class Emitter {
  private readonly out: string[] = [];
  private column = 0;
  private indent = -1;
  private readonly indents: number[] = [];
  private whitespace = true;
  private indention = true;

  result(): string {
    return this.out.join('');
  }

  document(value: unknown): void {
    this.node(value, { root: true, mapping: false, simpleKey: false }, 0);
    this.writeIndent();
  }

  private put(s: string): void {
    this.out.push(s);
    this.column += s.length;
  }

  private putChar(cp: number): void {
    this.out.push(String.fromCodePoint(cp));
    this.column++;
  }

  private putBreak(): void {
    this.out.push('\n');
    this.column = 0;
  }

  private increaseIndent(flow: boolean, indentless: boolean): void {
    this.indents.push(this.indent);
    if (this.indent < 0) this.indent = flow ? BEST_INDENT : 0;
    else if (!indentless) this.indent += BEST_INDENT;
  }

  private popIndent(): void {
    this.indent = this.indents.pop() as number;
  }

  private writeIndent(): void {
    const indent = Math.max(this.indent, 0);
    if (!this.indention || this.column > indent || (this.column === indent && !this.whitespace)) this.putBreak();
    while (this.column < indent) this.put(' ');
    this.whitespace = true;
    this.indention = true;
  }

  private indicator(text: string, needWhitespace: boolean, isWhitespace: boolean, isIndention: boolean): void {
    if (needWhitespace && !this.whitespace) this.put(' ');
    this.put(text);
    this.whitespace = isWhitespace;
    this.indention = this.indention && isIndention;
  }

  private node(value: unknown, ctx: NodeContext, depth: number): void {
    if (depth > 10_000) throw new UnsupportedValueError('json: exceeded max depth');
    if (value === null || value === undefined) this.scalar('null', 'plain', ctx);
    else if (typeof value === 'boolean') this.scalar(value ? 'true' : 'false', 'plain', ctx);
    else if (typeof value === 'number' || typeof value === 'bigint') this.scalar(formatYamlNumber(value), 'plain', ctx);
    else if (typeof value === 'string') this.scalar(value, requestedStringStyle(value), ctx);
    else if (typeof value !== 'object') throw new UnsupportedValueError(`json: unsupported type: ${typeof value}`);
    else if (typeof (value as { toJSON?: unknown }).toJSON === 'function') {
      this.node((value as { toJSON: () => unknown }).toJSON(), ctx, depth + 1);
    } else if (Array.isArray(value)) this.sequence(value, ctx, depth);
    else {
      const obj = value as Record<string, unknown>;
      const keys = Object.keys(obj).filter((k) => {
        const t = typeof obj[k];
        return t !== 'undefined' && t !== 'function' && t !== 'symbol';
      });
      this.mapping(obj, keys, depth);
    }
  }

  private sequence(items: readonly unknown[], ctx: NodeContext, depth: number): void {
    if (items.length === 0) {
      this.emptyFlow('[', ']');
      return;
    }
    this.increaseIndent(false, ctx.mapping && !this.indention);
    for (const item of items) {
      this.writeIndent();
      this.indicator('-', true, false, true);
      this.node(item, { root: false, mapping: false, simpleKey: false }, depth + 1);
    }
    this.popIndent();
  }

  private mapping(obj: Record<string, unknown>, keys: string[], depth: number): void {
    if (keys.length === 0) {
      this.emptyFlow('{', '}');
      return;
    }
    sortKeys(keys);
    this.increaseIndent(false, false);
    const valueCtx: NodeContext = { root: false, mapping: true, simpleKey: false };
    for (const key of keys) {
      this.writeIndent();
      const analysis = analyzeScalar(key);
      if (!analysis.multiline && Buffer.byteLength(key) <= 128) {
        this.scalar(key, requestedStringStyle(key), { root: false, mapping: true, simpleKey: true }, analysis);
        this.indicator(':', false, false, false);
      } else {
        this.indicator('?', true, false, true);
        this.scalar(key, requestedStringStyle(key), valueCtx, analysis);
        this.writeIndent();
        this.indicator(':', true, false, true);
      }
      this.node(obj[key], valueCtx, depth + 1);
    }
    this.popIndent();
  }

  private emptyFlow(open: string, close: string): void {
    this.indicator(open, true, true, false);
    this.increaseIndent(true, false);
    this.popIndent();
    this.indicator(close, false, false, false);
  }

  private scalar(value: string, requested: ScalarStyle, ctx: NodeContext, analysis = analyzeScalar(value)): void {
    const style = selectStyle(requested, analysis, value, ctx.simpleKey);
    this.increaseIndent(true, false);
    const allowBreaks = !ctx.simpleKey;
    if (style === 'plain') this.plain(value, allowBreaks);
    else if (style === 'single') this.singleQuoted(value, allowBreaks);
    else if (style === 'double') this.doubleQuoted(value, allowBreaks);
    else this.literal(value);
    this.popIndent();
  }

  private plain(value: string, allowBreaks: boolean): void {
    if (!this.whitespace) this.put(' ');
    // No space of the value can reach past the width: write it whole.
    if (!SURROGATE.test(value) && (!allowBreaks || this.column + value.length <= BEST_WIDTH || !value.includes(' '))) {
      this.put(value);
      this.whitespace = false;
      this.indention = false;
      return;
    }
    const cps = Array.from(value, (c) => c.codePointAt(0) as number);
    let spaces = false;
    for (let i = 0; i < cps.length; i++) {
      if (cps[i] === 0x20) {
        if (allowBreaks && !spaces && this.column > BEST_WIDTH && cps[i + 1] !== 0x20) this.writeIndent();
        else this.putChar(cps[i]);
        spaces = true;
      } else {
        this.putChar(cps[i]);
        this.indention = false;
        spaces = false;
      }
    }
    this.whitespace = false;
    this.indention = false;
  }

  private singleQuoted(value: string, allowBreaks: boolean): void {
    this.indicator("'", true, false, false);
    const cps = Array.from(value, (c) => c.codePointAt(0) as number);
    let spaces = false;
    let breaks = false;
    for (let i = 0; i < cps.length; i++) {
      const c = cps[i];
      if (c === 0x20) {
        const last = i === cps.length - 1;
        if (allowBreaks && !spaces && this.column > BEST_WIDTH && i > 0 && !last && cps[i + 1] !== 0x20) {
          this.writeIndent();
        } else {
          this.putChar(c);
        }
        spaces = true;
      } else if (isBreak(c)) {
        if (!breaks && c === 0x0a) this.putBreak();
        if (c === 0x0a) this.putBreak();
        else {
          this.putChar(c);
          this.column = 0;
        }
        this.indention = true;
        breaks = true;
      } else {
        if (breaks) this.writeIndent();
        if (c === 0x27) this.put("'");
        this.putChar(c);
        this.indention = false;
        spaces = false;
        breaks = false;
      }
    }
    this.indicator("'", false, false, false);
    this.whitespace = false;
    this.indention = false;
  }

  private doubleQuoted(value: string, allowBreaks: boolean): void {
    this.indicator('"', true, false, false);
    const cps = Array.from(value, (c) => c.codePointAt(0) as number);
    // libyaml checks for a BOM at the start of the value on every character.
    const bom = cps[0] === 0xfeff;
    let spaces = false;
    for (let i = 0; i < cps.length; i++) {
      const c = cps[i];
      if (!isPrintable(c) || bom || isBreak(c) || c === 0x22 || c === 0x5c) {
        this.put(`\\${ESCAPES[c] ?? hexEscape(c)}`);
        spaces = false;
      } else if (c === 0x20) {
        if (allowBreaks && !spaces && this.column > BEST_WIDTH && i > 0 && i < cps.length - 1) {
          this.writeIndent();
          if (cps[i + 1] === 0x20) this.put('\\');
        } else {
          this.putChar(c);
        }
        spaces = true;
      } else {
        this.putChar(c);
        spaces = false;
      }
    }
    this.indicator('"', false, false, false);
    this.whitespace = false;
    this.indention = false;
  }

  private literal(value: string): void {
    this.indicator('|', true, false, false);
    const cps = Array.from(value, (c) => c.codePointAt(0) as number);
    if (cps[0] === 0x20 || isBreak(cps[0])) this.indicator(String(BEST_INDENT), false, false, false);
    const n = cps.length;
    let chomp = '';
    if (!isBreak(cps[n - 1])) chomp = '-';
    else if (n === 1 || isBreak(cps[n - 2])) chomp = '+';
    if (chomp) this.indicator(chomp, false, false, false);
    this.putBreak();
    this.indention = true;
    this.whitespace = true;
    let breaks = true;
    for (const c of cps) {
      if (isBreak(c)) {
        if (c === 0x0a) this.putBreak();
        else {
          this.putChar(c);
          this.column = 0;
        }
        this.indention = true;
        breaks = true;
      } else {
        if (breaks) this.writeIndent();
        this.putChar(c);
        this.indention = false;
        breaks = false;
      }
    }
  }
}

function hexEscape(cp: number): string {
  const hex = cp.toString(16).toUpperCase();
  if (cp <= 0xff) return `x${hex.padStart(2, '0')}`;
  if (cp <= 0xffff) return `u${hex.padStart(4, '0')}`;
  return `U${hex.padStart(8, '0')}`;
}

/**
 * `value` (a JSON-compatible value) as kube-apiserver writes it for `application/yaml`.
 * `undefined` members are left out as `JSON.stringify` does. Throws `UnsupportedValueError` for
 * NaN, infinities and non-JSON types (Go's `json.Marshal` fails there too).
 */
export function encodeYaml(value: unknown): string {
  const e = new Emitter();
  e.document(value);
  return e.result();
}

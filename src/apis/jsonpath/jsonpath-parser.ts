/**
 * A parser of kube's JSONPath templates (client-go `util/jsonpath`, what `kubectl -o jsonpath`,
 * custom resource printer columns and selectable fields use): text with `{...}` actions holding
 * fields (`.a`, `['a']`), recursive descent (`..a`), indexes and slices (`[0]`, `[-1]`,
 * `[1:3:1]`, `[*]`), unions (`[0,1]`), wildcards (`.*`), filters (`[?(@.a == 'x')]`), quoted
 * text and number and boolean literals. `range`/`end` are not supported. Pure.
 */

/** A template: text and actions, in order. */
export type TemplateNode = { readonly kind: 'text'; readonly text: string } | ActionNode;

/** One `{...}` action: steps applied in order to the current values. */
export interface ActionNode {
  readonly kind: 'action';
  readonly steps: readonly Step[];
}

export interface SliceParam {
  readonly value: number;
  readonly known: boolean;
  /** The end of `[i]`, derived as `i + 1`. */
  readonly derived?: boolean;
}

export type Step =
  | { readonly kind: 'field'; readonly name: string }
  | { readonly kind: 'wildcard' }
  | { readonly kind: 'recursive' }
  | { readonly kind: 'array'; readonly params: readonly [SliceParam, SliceParam, SliceParam] }
  | { readonly kind: 'union'; readonly branches: readonly (readonly Step[])[] }
  | {
      readonly kind: 'filter';
      readonly left: readonly Step[];
      readonly right: readonly Step[];
      readonly operator: string;
    }
  | { readonly kind: 'literal'; readonly value: string | number | boolean };

/** A template that does not parse (kube's parser error). */
export class JsonPathSyntaxError extends Error {
  override readonly name = 'JsonPathSyntaxError';
}

const DICT_KEY = /^'([^']*)'$/;
const SLICE = /^(-?\d*)(:-?\d*)?(:-?\d*)?$/;
const FILTER = /^([^!<>=]+)([!<>=]+)(.+?)$/;

function isTerminator(ch: string | undefined): boolean {
  return ch === undefined || ' \t\r\n.,[]$@{}'.includes(ch);
}

function isAlphaNumeric(ch: string): boolean {
  return ch === '_' || /^[\p{L}\p{Nd}]$/u.test(ch);
}

/** Parses a whole template (`{.spec.replicas}`, `name: {.metadata.name}`). */
export function parseJsonPathTemplate(text: string): TemplateNode[] {
  const nodes: TemplateNode[] = [];
  let pos = 0;
  while (pos < text.length) {
    const open = text.indexOf('{', pos);
    if (open < 0) {
      nodes.push({ kind: 'text', text: text.slice(pos) });
      break;
    }
    if (open > pos) nodes.push({ kind: 'text', text: text.slice(pos, open) });
    const parser = new ActionParser(text, open + 1);
    nodes.push({ kind: 'action', steps: parser.parseUntilClose() });
    pos = parser.pos;
  }
  return nodes;
}

/** Parses the steps of an action's body (what stands between `{` and `}`). */
function parseSteps(body: string): Step[] {
  const parser = new ActionParser(`${body}}`, 0);
  const steps = parser.parseUntilClose();
  if (parser.pos !== body.length + 1) throw new JsonPathSyntaxError(`unexpected text after ${body}`);
  return steps;
}

class ActionParser {
  constructor(
    private readonly input: string,
    public pos: number,
  ) {}

  /** Steps up to the closing `}`, which is consumed. */
  parseUntilClose(): Step[] {
    const steps: Step[] = [];
    for (;;) {
      const rest = this.input.slice(this.pos);
      if (rest.startsWith('}')) {
        this.pos++;
        return steps;
      }
      if (rest.startsWith('[?(')) {
        steps.push(this.parseFilter());
        continue;
      }
      if (rest.startsWith('..')) {
        if (steps.at(-1)?.kind === 'recursive') throw new JsonPathSyntaxError('invalid multiple recursive descent');
        this.pos += 2;
        steps.push({ kind: 'recursive' });
        const next = this.input[this.pos];
        if (next !== undefined && isAlphaNumeric(next)) steps.push(this.parseField());
        continue;
      }
      const ch = this.input[this.pos];
      if (ch === undefined || ch === '\r' || ch === '\n') throw new JsonPathSyntaxError('unclosed action');
      if (ch === ' ' || ch === '@' || ch === '$') {
        this.pos++;
      } else if (ch === '[') {
        steps.push(this.parseArray());
      } else if (ch === '"' || ch === "'") {
        steps.push({ kind: 'literal', value: this.parseQuote(ch) });
      } else if (ch === '.') {
        this.pos++;
        steps.push(this.parseField());
      } else if (ch === '+' || ch === '-' || /\d/.test(ch)) {
        steps.push(this.parseNumber());
      } else if (isAlphaNumeric(ch)) {
        steps.push(this.parseIdentifier());
      } else {
        throw new JsonPathSyntaxError(`unrecognized character in action: ${JSON.stringify(ch)}`);
      }
    }
  }

  private parseField(): Step {
    const start = this.pos;
    let name = '';
    while (!isTerminator(this.input[this.pos])) {
      if (this.input[this.pos] === '\\') this.pos++;
      if (this.pos < this.input.length) name += this.input[this.pos];
      this.pos++;
    }
    const raw = this.input.slice(start, this.pos);
    return raw === '*' ? { kind: 'wildcard' } : { kind: 'field', name };
  }

  private parseIdentifier(): Step {
    const start = this.pos;
    while (!isTerminator(this.input[this.pos])) this.pos++;
    const word = this.input.slice(start, this.pos);
    if (word === 'true' || word === 'false') return { kind: 'literal', value: word === 'true' };
    throw new JsonPathSyntaxError(`unrecognized identifier ${word}`);
  }

  private parseNumber(): Step {
    const start = this.pos;
    if (this.input[this.pos] === '+' || this.input[this.pos] === '-') this.pos++;
    while (/[\d.]/.test(this.input[this.pos] ?? '')) this.pos++;
    const text = this.input.slice(start, this.pos);
    const n = Number(text);
    if (text === '' || text === '+' || text === '-' || Number.isNaN(n)) {
      throw new JsonPathSyntaxError(`cannot parse number ${text}`);
    }
    return { kind: 'literal', value: n };
  }

  private parseQuote(quote: string): string {
    const start = this.pos;
    this.pos++;
    for (;;) {
      const ch = this.input[this.pos];
      if (ch === undefined || ch === '\n') throw new JsonPathSyntaxError('unterminated quoted string');
      this.pos++;
      if (ch === quote && this.input[this.pos - 2] !== '\\') break;
    }
    const body = this.input.slice(start + 1, this.pos - 1);
    return body.replace(/\\(.)/g, (_, c: string) => ({ n: '\n', t: '\t', r: '\r' })[c] ?? c);
  }

  private parseArray(): Step {
    const close = this.input.indexOf(']', this.pos);
    const newline = this.input.indexOf('\n', this.pos);
    if (close < 0 || (newline >= 0 && newline < close)) throw new JsonPathSyntaxError('unterminated array');
    let text = this.input.slice(this.pos + 1, close);
    this.pos = close + 1;
    if (text === '*') text = ':';
    const parts = text.split(',');
    if (parts.length > 1) return { kind: 'union', branches: parts.map((p) => parseSteps(`[${p.trim()}]`)) };
    const key = DICT_KEY.exec(text);
    if (key) return { kind: 'field', name: key[1] };
    const m = SLICE.exec(text);
    if (!m) throw new JsonPathSyntaxError(`invalid array index ${text}`);
    const param = (i: number): SliceParam => {
      const raw = m[i + 1];
      if (raw === undefined || raw === '') {
        if (i === 1) return { value: param(0).value + 1, known: true, derived: true };
        return { value: 0, known: false };
      }
      const digits = i > 0 ? raw.slice(1) : raw;
      if (i > 0 && digits === '') return { value: 0, known: false };
      const n = Number(digits);
      if (!Number.isInteger(n)) throw new JsonPathSyntaxError(`array index ${digits} is not a number`);
      return { value: n, known: true };
    };
    return { kind: 'array', params: [param(0), param(1), param(2)] };
  }

  private parseFilter(): Step {
    this.pos += 3;
    const start = this.pos;
    let quote: string | undefined;
    let closedQuote = false;
    for (;;) {
      const ch = this.input[this.pos];
      if (ch === undefined || ch === '\n') throw new JsonPathSyntaxError('unterminated filter');
      this.pos++;
      if (ch === '"' || ch === "'") {
        if (quote === undefined) quote = ch;
        else if (ch === quote && this.input[this.pos - 2] !== '\\') closedQuote = true;
      } else if (ch === ')' && (quote === undefined) === !closedQuote) {
        break;
      }
    }
    if (this.input[this.pos] !== ']') throw new JsonPathSyntaxError('unclosed array expect ]');
    const text = this.input.slice(start, this.pos - 1);
    this.pos++;
    const m = FILTER.exec(text);
    if (!m) return { kind: 'filter', left: parseSteps(text), right: [], operator: 'exists' };
    return { kind: 'filter', left: parseSteps(m[1]), right: parseSteps(m[3]), operator: m[2] };
  }
}

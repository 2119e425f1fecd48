/**
 * The lexer of kube's label selector grammar (`labels.Parse`). It works on characters the way
 * kube's works on bytes: every special symbol and whitespace character is ASCII, so identifiers
 * come out the same. A NUL character reads as end of input, as in kube.
 */

export type LabelToken =
  | 'error'
  | 'end'
  | ')'
  | ','
  | '!'
  | '=='
  | '='
  | '>'
  | 'identifier'
  | 'in'
  | '<'
  | '!='
  | 'notin'
  | '(';

export interface ScannedItem {
  readonly token: LabelToken;
  readonly literal: string;
}

/** Literal forms of every token but identifiers, end and error. */
const LITERAL_TOKENS: ReadonlyMap<string, LabelToken> = new Map<string, LabelToken>([
  [')', ')'],
  [',', ','],
  ['!', '!'],
  ['==', '=='],
  ['=', '='],
  ['>', '>'],
  ['in', 'in'],
  ['<', '<'],
  ['!=', '!='],
  ['notin', 'notin'],
  ['(', '('],
]);

const END = '\0';

function isWhitespace(ch: string): boolean {
  return ch === ' ' || ch === '\t' || ch === '\r' || ch === '\n';
}

function isSpecialSymbol(ch: string): boolean {
  return ch === '=' || ch === '!' || ch === '(' || ch === ')' || ch === ',' || ch === '>' || ch === '<';
}

class Lexer {
  private pos = 0;
  constructor(private readonly text: string) {}

  private read(): string {
    if (this.pos < this.text.length) return this.text[this.pos++];
    return END;
  }

  private unread(): void {
    this.pos--;
  }

  private scanIdOrKeyword(): ScannedItem {
    let buffer = '';
    for (;;) {
      const ch = this.read();
      if (ch === END) break;
      if (isSpecialSymbol(ch) || isWhitespace(ch)) {
        this.unread();
        break;
      }
      buffer += ch;
    }
    return { token: LITERAL_TOKENS.get(buffer) ?? 'identifier', literal: buffer };
  }

  /** Longest run of special symbols that still forms a token (`!=` over `!`, `==` over `=`). */
  private scanSpecialSymbol(): ScannedItem {
    let buffer = '';
    let last: ScannedItem | undefined;
    for (;;) {
      const ch = this.read();
      if (ch === END) break;
      if (!isSpecialSymbol(ch)) {
        this.unread();
        break;
      }
      buffer += ch;
      const token = LITERAL_TOKENS.get(buffer);
      if (token) last = { token, literal: buffer };
      else if (last) {
        this.unread();
        break;
      }
    }
    return last ?? { token: 'error', literal: `error expected: keyword found '${buffer}'` };
  }

  lex(): ScannedItem {
    let ch = this.read();
    while (isWhitespace(ch)) ch = this.read();
    if (ch === END) return { token: 'end', literal: '' };
    this.unread();
    return isSpecialSymbol(ch) ? this.scanSpecialSymbol() : this.scanIdOrKeyword();
  }
}

/** Every token of `text`, ending with (and including) the first `end` token. */
export function scanLabelSelector(text: string): ScannedItem[] {
  const lexer = new Lexer(text);
  const items: ScannedItem[] = [];
  for (;;) {
    const item = lexer.lex();
    items.push(item);
    if (item.token === 'end') return items;
  }
}

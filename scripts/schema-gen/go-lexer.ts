import { SchemaGenError } from './facts.js';

/**
 * A lexer for the subset of Go that API type files use: identifiers, numbers, interpreted,
 * raw and rune literals, punctuation, line comments (kept: they carry `+markers`) and
 * newlines. Block comments become a newline (they are never doc comments here).
 */

/** Token kinds; comments and newlines are tokens (doc comments and field ends need them). */
export type TokenKind = 'ident' | 'string' | 'number' | 'punct' | 'comment' | 'newline' | 'char';

export interface Token {
  readonly kind: TokenKind;
  readonly text: string;
  readonly line: number;
}

/** The tokens of a Go source file. Throws `SchemaGenError` naming the line of what it cannot read. */
export function lex(text: string, file: string): Token[] {
  const out: Token[] = [];
  let i = 0;
  let line = 1;
  const push = (kind: TokenKind, value: string) => out.push({ kind, text: value, line });
  while (i < text.length) {
    const c = text[i];
    if (c === '\n') {
      push('newline', '\n');
      line++;
      i++;
    } else if (c === ' ' || c === '\t' || c === '\r') {
      i++;
    } else if (text.startsWith('//', i)) {
      const end = text.indexOf('\n', i);
      const stop = end < 0 ? text.length : end;
      push('comment', text.slice(i + 2, stop));
      i = stop;
    } else if (text.startsWith('/*', i)) {
      const end = text.indexOf('*/', i + 2);
      if (end < 0) throw new SchemaGenError(`${file}:${line}: unterminated block comment`);
      const body = text.slice(i, end + 2);
      // A block comment is no doc comment here; only its line count matters.
      for (const ch of body) if (ch === '\n') line++;
      push('newline', '\n');
      i = end + 2;
    } else if (c === '`') {
      const end = text.indexOf('`', i + 1);
      if (end < 0) throw new SchemaGenError(`${file}:${line}: unterminated raw string`);
      const body = text.slice(i + 1, end);
      push('string', body);
      for (const ch of body) if (ch === '\n') line++;
      i = end + 1;
    } else if (c === '"' || c === "'") {
      let j = i + 1;
      let value = '';
      while (j < text.length && text[j] !== c) {
        if (text[j] === '\n') throw new SchemaGenError(`${file}:${line}: newline in string`);
        if (text[j] === '\\') {
          value += unescapeChar(text[j + 1]);
          j += 2;
        } else value += text[j++];
      }
      push(c === '"' ? 'string' : 'char', value);
      i = j + 1;
    } else if (/[A-Za-z_]/.test(c)) {
      let j = i;
      while (j < text.length && /[\w]/.test(text[j])) j++;
      push('ident', text.slice(i, j));
      i = j;
    } else if (/[0-9]/.test(c)) {
      let j = i;
      while (j < text.length && /[\w.]/.test(text[j])) j++;
      push('number', text.slice(i, j));
      i = j;
    } else {
      push('punct', c);
      i++;
    }
  }
  push('newline', '\n');
  return out;
}

function unescapeChar(c: string): string {
  const map: Record<string, string> = { n: '\n', t: '\t', r: '\r', '\\': '\\', '"': '"', "'": "'" };
  const v = map[c];
  if (v === undefined) throw new SchemaGenError(`unsupported string escape \\${c}`);
  return v;
}

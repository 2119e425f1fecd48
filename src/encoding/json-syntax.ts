/**
 * The first syntax error in a JSON text, worded exactly as Go's `encoding/json` scanner words
 * it (which is what kube-apiserver reports for malformed bodies), e.g.
 * `invalid character '}' looking for beginning of object key string` or
 * `unexpected end of JSON input`. Pure; iterative, so deep nesting cannot overflow the stack.
 */

import { goQuoteJsonByte } from '../util/go-strconv.js';
import { JsonSyntaxError } from './errors.js';

/** Go's `maxNestingDepth`. */
const MAX_DEPTH = 10_000;
const HEX = /[0-9a-fA-F]/;

class Scan {
  i = 0;
  constructor(readonly text: string) {}

  get eof(): boolean {
    return this.i >= this.text.length;
  }

  code(): number {
    return this.text.charCodeAt(this.i);
  }

  skipSpace(): void {
    for (;;) {
      const c = this.text.charCodeAt(this.i);
      if (c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d) this.i++;
      else return;
    }
  }

  /**
   * `invalid character X <context>`. At the end of input Go feeds the scanner a space, so
   * an incomplete number, literal or escape reports `' '` rather than end of input.
   */
  fail(context: string, eofAsSpace = false): JsonSyntaxError {
    if (this.eof && !eofAsSpace) return new JsonSyntaxError('unexpected end of JSON input', this.i);
    const ch = this.eof ? ' ' : String.fromCodePoint(this.text.codePointAt(this.i) as number);
    return new JsonSyntaxError(`invalid character ${goQuoteJsonByte(ch)} ${context}`, this.i);
  }
}

function scanString(s: Scan): JsonSyntaxError | undefined {
  s.i++;
  for (;;) {
    if (s.eof) return s.fail('in string literal');
    const c = s.code();
    if (c === 0x22) {
      s.i++;
      return undefined;
    }
    if (c === 0x5c) {
      s.i++;
      if (s.eof) return s.fail('in string escape code', true);
      const e = s.text[s.i];
      if (e === 'u') {
        s.i++;
        for (let k = 0; k < 4; k++, s.i++) {
          if (s.eof || !HEX.test(s.text[s.i])) return s.fail('in \\u hexadecimal character escape', true);
        }
        continue;
      }
      if (!'"\\/bfnrt'.includes(e)) return s.fail('in string escape code');
      s.i++;
      continue;
    }
    if (c < 0x20) return s.fail('in string literal');
    s.i++;
  }
}

const isDigit = (c: number): boolean => c >= 0x30 && c <= 0x39;

function scanNumber(s: Scan): JsonSyntaxError | undefined {
  if (s.code() === 0x2d) {
    s.i++;
    if (s.eof || !isDigit(s.code())) return s.fail('in numeric literal', true);
  }
  if (s.code() === 0x30) s.i++;
  else while (isDigit(s.code())) s.i++;
  if (s.code() === 0x2e) {
    s.i++;
    if (s.eof || !isDigit(s.code())) return s.fail('after decimal point in numeric literal', true);
    while (isDigit(s.code())) s.i++;
  }
  const e = s.code();
  if (e === 0x65 || e === 0x45) {
    s.i++;
    const sign = s.code();
    if (sign === 0x2b || sign === 0x2d) s.i++;
    if (s.eof || !isDigit(s.code())) return s.fail('in exponent of numeric literal', true);
    while (isDigit(s.code())) s.i++;
  }
  return undefined;
}

function scanLiteral(s: Scan, literal: string): JsonSyntaxError | undefined {
  s.i++;
  for (let k = 1; k < literal.length; k++, s.i++) {
    if (s.eof || s.text[s.i] !== literal[k]) return s.fail(`in literal ${literal} (expecting '${literal[k]}')`, true);
  }
  return undefined;
}

/** One scalar or the opening of a container; pushes containers on `stack`. */
function scanValue(s: Scan, stack: ('{' | '[')[]): JsonSyntaxError | 'open' | undefined {
  s.skipSpace();
  if (s.eof) return s.fail('looking for beginning of value');
  const c = s.text[s.i];
  if (c === '{' || c === '[') {
    if (stack.length >= MAX_DEPTH) return s.fail('exceeded max depth');
    stack.push(c);
    s.i++;
    return 'open';
  }
  if (c === '"') return scanString(s);
  if (c === '-' || isDigit(s.code())) return scanNumber(s);
  if (c === 't') return scanLiteral(s, 'true');
  if (c === 'f') return scanLiteral(s, 'false');
  if (c === 'n') return scanLiteral(s, 'null');
  return s.fail('looking for beginning of value');
}

/** Reads `"key" :` at the cursor (after `{` or `,` and spaces). */
function scanKey(s: Scan): JsonSyntaxError | undefined {
  if (s.eof || s.text[s.i] !== '"') return s.fail('looking for beginning of object key string');
  const err = scanString(s);
  if (err) return err;
  s.skipSpace();
  if (s.eof || s.text[s.i] !== ':') return s.fail('after object key');
  s.i++;
  return undefined;
}

/** The first syntax error in `text` as Go reports it, or `undefined` for valid JSON. */
export function findJsonSyntaxError(text: string): JsonSyntaxError | undefined {
  const s = new Scan(text);
  const stack: ('{' | '[')[] = [];
  let expectValue = true;
  for (;;) {
    if (expectValue) {
      const r = scanValue(s, stack);
      if (r instanceof JsonSyntaxError) return r;
      if (r === 'open') {
        s.skipSpace();
        const top = stack[stack.length - 1];
        const close = top === '{' ? '}' : ']';
        if (!s.eof && s.text[s.i] === close) {
          s.i++;
          stack.pop();
          expectValue = false;
        } else if (top === '{') {
          const err = scanKey(s);
          if (err) return err;
        }
        continue;
      }
      expectValue = false;
      continue;
    }
    s.skipSpace();
    const top = stack[stack.length - 1];
    if (top === undefined) return s.eof ? undefined : s.fail('after top-level value');
    if (s.eof) return s.fail('');
    const c = s.text[s.i];
    if (c === ',') {
      s.i++;
      if (top === '{') {
        s.skipSpace();
        const err = scanKey(s);
        if (err) return err;
      }
      expectValue = true;
    } else if ((top === '{' && c === '}') || (top === '[' && c === ']')) {
      s.i++;
      stack.pop();
    } else {
      return s.fail(top === '{' ? 'after object key:value pair' : 'after array element');
    }
  }
}

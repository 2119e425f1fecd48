import { SchemaGenError } from './facts.js';
import { lex, type Token } from './go-lexer.js';

/**
 * A reader of the declarations of one Go source file, as far as API type packages use them:
 * the package clause, imports, `type` declarations (structs with field tags, named types),
 * `const` declarations with explicit types and string values, and the doc comments of each.
 * Function bodies, `var` declarations and everything else are skipped. Comment text is kept
 * only so callers can read `+marker` lines; no prose leaves the reducer.
 */

/** A Go type expression. `pkg` is the import name a qualified identifier uses (`metav1`). */
export type GoType =
  | { readonly kind: 'name'; readonly pkg?: string; readonly name: string }
  | { readonly kind: 'pointer'; readonly elem: GoType }
  | { readonly kind: 'slice'; readonly elem: GoType }
  | { readonly kind: 'array'; readonly elem: GoType }
  | { readonly kind: 'map'; readonly key: GoType; readonly value: GoType }
  | { readonly kind: 'struct'; readonly fields: readonly GoField[] }
  | { readonly kind: 'interface' }
  | { readonly kind: 'func' };

export interface GoField {
  /** Field name; the type's name for an embedded field. */
  readonly name: string;
  readonly embedded: boolean;
  readonly type: GoType;
  /** The raw struct tag (without backquotes), `''` when none. */
  readonly tag: string;
  /** The doc comment lines directly above the field (without `//`). */
  readonly comments: readonly string[];
  readonly line: number;
}

export interface GoTypeDecl {
  readonly name: string;
  readonly type: GoType;
  /** The doc comment lines directly above the declaration. */
  readonly comments: readonly string[];
  readonly file: string;
  readonly line: number;
}

export interface GoConst {
  readonly name: string;
  /** The explicit type name of a typed constant (`PullPolicy`), if any. */
  readonly type?: string;
  /** The value, when it is a string literal. */
  readonly value?: string;
}

export interface GoFile {
  readonly path: string;
  readonly packageName: string;
  /** Comment lines directly above the package clause. */
  readonly packageComments: readonly string[];
  /** Import name → import path. */
  readonly imports: ReadonlyMap<string, string>;
  readonly types: readonly GoTypeDecl[];
  readonly consts: readonly GoConst[];
}

/** A cursor over tokens that tracks the comment groups seen before the current declaration. */
class Parser {
  private pos = 0;
  /** Comment groups since the last declaration; a blank line closes a group. */
  private groups: string[][] = [];
  private blankLines = 0;

  constructor(
    private readonly tokens: Token[],
    private readonly file: string,
  ) {}

  get tok(): Token {
    return this.tokens[this.pos];
  }

  fail(message: string, at: Token = this.tok): never {
    throw new SchemaGenError(`${this.file}:${at.line}: ${message}`);
  }

  done(): boolean {
    return this.pos >= this.tokens.length;
  }

  /** Skips newlines and comments, recording comment groups (for the next declaration's doc). */
  skipSpace(): void {
    while (!this.done()) {
      const t = this.tok;
      if (t.kind === 'comment') {
        if (this.blankLines > 0 || this.groups.length === 0) this.groups.push([]);
        this.groups[this.groups.length - 1].push(t.text);
        this.blankLines = 0;
        this.pos++;
        // The newline ending the comment line is not a blank line.
        if (!this.done() && this.tok.kind === 'newline') this.pos++;
      } else if (t.kind === 'newline') {
        this.blankLines++;
        this.pos++;
      } else return;
    }
  }

  /** The doc comment of the declaration at the cursor: the comment group directly above it. */
  takeDoc(): string[] {
    const attached = this.blankLines === 0 && this.groups.length > 0;
    const doc = attached ? this.groups[this.groups.length - 1] : [];
    this.groups = [];
    return doc;
  }

  /** Every line comment since the previous declaration (the package clause's tags may stand apart). */
  takeAllComments(): string[] {
    const all = this.groups.flat();
    this.groups = [];
    return all;
  }

  /** The token `n` places after the cursor. */
  ahead(n: number): Token | undefined {
    return this.tokens[this.pos + n];
  }

  peek(text: string): boolean {
    return !this.done() && this.tok.text === text && this.tok.kind !== 'string';
  }

  expect(text: string): Token {
    if (!this.peek(text)) this.fail(`expected "${text}", found "${this.tok.text}"`);
    return this.tokens[this.pos++];
  }

  ident(): string {
    if (this.tok.kind !== 'ident') this.fail(`expected an identifier, found "${this.tok.text}"`);
    return this.tokens[this.pos++].text;
  }

  next(): Token {
    return this.tokens[this.pos++];
  }

  /** Skips a balanced `(...)`, `{...}` or `[...]` starting at the cursor. */
  skipBalanced(): void {
    const open = this.tok.text;
    const close = ({ '(': ')', '{': '}', '[': ']' } as Record<string, string>)[open];
    if (!close) this.fail(`expected a bracket, found "${open}"`);
    let depth = 0;
    do {
      const t = this.next();
      if (t.kind === 'punct' && t.text === open) depth++;
      else if (t.kind === 'punct' && t.text === close) depth--;
      if (this.done() && depth > 0) this.fail(`unbalanced ${open}`);
    } while (depth > 0);
  }

  /** Skips to the end of the current line (outside brackets). */
  skipLine(): void {
    while (!this.done() && this.tok.kind !== 'newline') {
      if (this.tok.kind === 'punct' && '({['.includes(this.tok.text)) this.skipBalanced();
      else this.pos++;
    }
  }

  parseType(): GoType {
    const t = this.tok;
    if (t.kind === 'punct' && t.text === '*') {
      this.pos++;
      return { kind: 'pointer', elem: this.parseType() };
    }
    if (t.kind === 'punct' && t.text === '[') {
      this.pos++;
      if (this.peek(']')) {
        this.pos++;
        return { kind: 'slice', elem: this.parseType() };
      }
      while (!this.peek(']')) this.pos++;
      this.pos++;
      return { kind: 'array', elem: this.parseType() };
    }
    if (t.kind === 'ident' && t.text === 'map') {
      this.pos++;
      this.expect('[');
      const key = this.parseType();
      this.expect(']');
      return { kind: 'map', key, value: this.parseType() };
    }
    if (t.kind === 'ident' && t.text === 'struct') {
      this.pos++;
      return { kind: 'struct', fields: this.parseFields() };
    }
    if (t.kind === 'ident' && t.text === 'interface') {
      this.pos++;
      this.skipBalanced();
      return { kind: 'interface' };
    }
    if (t.kind === 'ident' && t.text === 'func') {
      this.pos++;
      this.skipBalanced();
      if (this.peek('(')) this.skipBalanced();
      else if (this.tok.kind === 'ident' || this.peek('*') || this.peek('[')) this.parseType();
      return { kind: 'func' };
    }
    if (t.kind === 'ident') {
      this.pos++;
      if (this.peek('.')) {
        this.pos++;
        return { kind: 'name', pkg: t.text, name: this.ident() };
      }
      return { kind: 'name', name: t.text };
    }
    return this.fail(`unsupported type syntax "${t.text}"`);
  }

  private parseFields(): GoField[] {
    this.expect('{');
    const fields: GoField[] = [];
    this.groups = [];
    this.blankLines = 1;
    for (;;) {
      this.skipSpace();
      if (this.peek('}')) {
        this.pos++;
        this.groups = [];
        return fields;
      }
      const doc = this.takeDoc();
      const line = this.tok.line;
      let names: string[] = [];
      let type: GoType;
      let embedded = false;
      if (this.peek('*')) {
        embedded = true;
        type = this.parseType();
      } else {
        const first = this.ident();
        if (this.peek('.')) {
          this.pos++;
          embedded = true;
          type = { kind: 'name', pkg: first, name: this.ident() };
        } else if (this.tok.kind === 'string' || this.tok.kind === 'newline' || this.tok.kind === 'comment') {
          embedded = true;
          type = { kind: 'name', name: first };
        } else {
          names = [first];
          while (this.peek(',')) {
            this.pos++;
            names.push(this.ident());
          }
          type = this.parseType();
        }
      }
      const tag = this.tok.kind === 'string' ? this.next().text : '';
      if (this.tok.kind === 'comment') this.pos++;
      if (!this.done() && this.tok.kind !== 'newline' && !this.peek('}') && !this.peek(';')) {
        this.fail(`unexpected "${this.tok.text}" after field`);
      }
      if (this.peek(';')) this.pos++;
      const embeddedName = (t: GoType): string =>
        t.kind === 'pointer' ? embeddedName(t.elem) : (t as { name: string }).name;
      if (embedded) names = [embeddedName(type)];
      for (const name of names) fields.push({ name, embedded, type, tag, comments: doc, line });
      this.blankLines = 0;
    }
  }
}

/** Parses the declarations of one Go file. Throws `SchemaGenError` naming the line it cannot read. */
export function parseGoFile(text: string, path: string): GoFile {
  const p = new Parser(lex(text, path), path);
  let packageName = '';
  let packageComments: string[] = [];
  const imports = new Map<string, string>();
  const types: GoTypeDecl[] = [];
  const consts: GoConst[] = [];
  const importSpec = () => {
    let name: string | undefined;
    if (!p.peek('"')) {
      const t = p.next();
      if (t.kind === 'string') {
        name = t.text.slice(t.text.lastIndexOf('/') + 1);
        imports.set(name, t.text);
        return;
      }
      name = t.text;
    }
    const path = p.next();
    if (path.kind !== 'string') p.fail('expected an import path', path);
    imports.set(name ?? path.text.slice(path.text.lastIndexOf('/') + 1), path.text);
  };
  const typeSpec = (doc: string[]) => {
    const line = p.tok.line;
    const name = p.ident();
    if (p.peek('[') && p.ahead(1)?.kind === 'ident') p.fail(`generic type ${name} is not supported`);
    // `type A = B` (an alias) reads the same as a definition here.
    if (p.peek('=')) p.next();
    const type = p.parseType();
    types.push({ name, type, comments: doc, file: path, line });
  };
  let lastType: string | undefined;
  let lastValue: string | undefined;
  const constSpec = (grouped: boolean) => {
    const names = [p.ident()];
    while (p.peek(',')) {
      p.next();
      names.push(p.ident());
    }
    let type: string | undefined;
    let value: string | undefined;
    let hasValue = false;
    if (!p.peek('=') && !p.done() && p.tok.kind === 'ident') {
      type = p.ident();
      if (p.peek('.')) {
        p.next();
        type = `${type}.${p.ident()}`;
      }
    }
    if (p.peek('=')) {
      p.next();
      hasValue = true;
      const t = p.next();
      if (t.kind === 'string') value = t.text;
      p.skipLine();
    }
    if (grouped && !hasValue) {
      // Implicit repetition of the previous spec's type and expression.
      type = lastType;
      value = lastValue;
    } else {
      lastType = type;
      lastValue = value;
    }
    for (const name of names) consts.push({ name, type, value });
  };
  const group = (spec: () => void) => {
    if (p.peek('(')) {
      p.next();
      for (;;) {
        p.skipSpace();
        if (p.peek(')')) {
          p.next();
          break;
        }
        spec();
      }
    } else spec();
  };
  for (;;) {
    p.skipSpace();
    if (p.done()) break;
    const t = p.next();
    if (t.kind !== 'ident') p.fail(`unexpected "${t.text}" at top level`, t);
    switch (t.text) {
      case 'package': {
        packageComments = p.takeAllComments();
        packageName = p.ident();
        p.skipLine();
        break;
      }
      case 'import':
        p.takeDoc();
        group(importSpec);
        break;
      case 'type': {
        const doc = p.takeDoc();
        if (p.peek('(')) {
          group(() => typeSpec(p.takeDoc()));
        } else typeSpec(doc);
        break;
      }
      case 'const':
        p.takeDoc();
        lastType = undefined;
        lastValue = undefined;
        if (p.peek('(')) group(() => constSpec(true));
        else constSpec(false);
        break;
      case 'var':
        p.takeDoc();
        if (p.peek('(')) p.skipBalanced();
        else p.skipLine();
        break;
      case 'func': {
        p.takeDoc();
        // Receiver, name, parameters, results, body: skip to the body's end.
        while (!p.done() && !p.peek('{')) {
          if (p.peek('(') || p.peek('[')) p.skipBalanced();
          else if (p.peek('interface') || p.peek('struct')) {
            p.next();
            p.skipBalanced();
          } else p.next();
        }
        if (!p.done()) p.skipBalanced();
        break;
      }
      default:
        p.fail(`unexpected "${t.text}" at top level`, t);
    }
  }
  if (!packageName) throw new SchemaGenError(`${path}: no package clause`);
  return { path, packageName, packageComments, imports, types, consts };
}

/**
 * Just enough of the field-selector grammar to answer one question for request-info parsing:
 * does `fieldSelector` pin `metadata.name` to a single value? The grammar and escaping rules
 * follow kube's `fields.ParseSelector`; a selector that does not parse pins nothing.
 */

interface Term {
  readonly field: string;
  readonly op: '=' | '==' | '!=';
  readonly value: string;
}

/** Splits on unescaped commas; a backslash escapes the next character. */
function splitTerms(selector: string): string[] {
  const terms: string[] = [];
  let start = 0;
  let escaped = false;
  for (let i = 0; i < selector.length; i++) {
    const c = selector[i];
    if (escaped) escaped = false;
    else if (c === '\\') escaped = true;
    else if (c === ',') {
      terms.push(selector.slice(start, i));
      start = i + 1;
    }
  }
  terms.push(selector.slice(start));
  return terms;
}

/** The first operator occurrence wins; at one position `!=` and `==` are tried before `=`. */
function splitTerm(term: string): Term | undefined {
  for (let i = 0; i < term.length; i++) {
    for (const op of ['!=', '==', '='] as const) {
      if (term.startsWith(op, i)) {
        return { field: term.slice(0, i), op, value: term.slice(i + op.length) };
      }
    }
  }
  return undefined;
}

/** Undoes `\\`, `\,` and `\=`; any other escape, a trailing backslash or a bare `,`/`=` is invalid. */
function unescapeValue(raw: string): string | undefined {
  let out = '';
  let escaped = false;
  for (const c of raw) {
    if (escaped) {
      if (c !== '\\' && c !== ',' && c !== '=') return undefined;
      out += c;
      escaped = false;
    } else if (c === '\\') escaped = true;
    else if (c === ',' || c === '=') return undefined;
    else out += c;
  }
  return escaped ? undefined : out;
}

/**
 * Returns the value `selector` requires `field` to equal exactly, or undefined when it does not
 * (including when the selector is malformed). With several equality terms on the field, the
 * first in sorted term order wins, as kube does.
 */
export function requiredExactMatch(selector: string, field: string): string | undefined {
  if (selector === '') return undefined;
  const terms: Term[] = [];
  // Kube sorts the raw terms before interpreting them; byte order equals code-unit order for ASCII.
  for (const part of splitTerms(selector).sort()) {
    if (part === '') continue;
    const term = splitTerm(part);
    if (!term) return undefined;
    const value = unescapeValue(term.value);
    if (value === undefined) return undefined;
    terms.push({ ...term, value });
  }
  for (const t of terms) {
    if (t.field === field && t.op !== '!=') return t.value;
  }
  return undefined;
}

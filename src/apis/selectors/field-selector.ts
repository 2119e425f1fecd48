import { compareGoStrings } from '../../util/go-strings.js';
import { SelectorParseError } from './errors.js';

/** One term of a field selector; `==` parses as `=`. */
export interface FieldRequirement {
  readonly field: string;
  readonly operator: '=' | '!=';
  /** The unescaped value. */
  readonly value: string;
}

/** A parsed field selector: the AND of its terms, in kube's order (sorted raw term text). */
export interface FieldSelector {
  readonly requirements: readonly FieldRequirement[];
  /** True when it restricts nothing. */
  readonly empty: boolean;
}

/** The field selector that matches everything. */
export const EVERYTHING_FIELD_SELECTOR: FieldSelector = Object.freeze({ requirements: Object.freeze([]), empty: true });

/** Splits on commas not escaped by a backslash. */
function splitTerms(text: string): string[] {
  if (text.length === 0) return [];
  const terms: string[] = [];
  let start = 0;
  let inSlash = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (inSlash) inSlash = false;
    else if (c === '\\') inSlash = true;
    else if (c === ',') {
      terms.push(text.slice(start, i));
      start = i + 1;
    }
  }
  terms.push(text.slice(start));
  return terms;
}

const TERM_OPERATORS = ['!=', '==', '='] as const;

/** The first position holding an operator splits the term; `!=` and `==` win over `=` there. */
function splitTerm(term: string): { lhs: string; op: (typeof TERM_OPERATORS)[number]; rhs: string } | undefined {
  for (let i = 0; i < term.length; i++) {
    for (const op of TERM_OPERATORS) {
      if (term.startsWith(op, i)) return { lhs: term.slice(0, i), op, rhs: term.slice(i + op.length) };
    }
  }
  return undefined;
}

/**
 * kube's `fields.UnescapeValue`: `\\`, `\,` and `\=` stand for `\`, `,` and `=`; any other
 * escape, a trailing backslash, or a bare `,` or `=` is an error.
 *
 * @throws SelectorParseError `invalid field selector: invalid escape sequence: \x` or
 *   `invalid field selector: unescaped character in value: 61` (kube prints the rune's number).
 */
export function unescapeFieldValue(value: string): string {
  if (!/[\\,=]/.test(value)) return value;
  let out = '';
  let inSlash = false;
  for (const c of value) {
    if (inSlash) {
      if (c !== '\\' && c !== ',' && c !== '=') {
        throw new SelectorParseError('field', `invalid field selector: invalid escape sequence: \\${c}`);
      }
      out += c;
      inSlash = false;
    } else if (c === '\\') inSlash = true;
    else if (c === ',' || c === '=') {
      throw new SelectorParseError(
        'field',
        `invalid field selector: unescaped character in value: ${c.codePointAt(0)}`,
      );
    } else out += c;
  }
  if (inSlash) throw new SelectorParseError('field', 'invalid field selector: invalid escape sequence: \\');
  return out;
}

/** kube's `fields.EscapeValue`: escapes `\`, `,` and `=` with a backslash. */
export function escapeFieldValue(value: string): string {
  return value.replace(/[\\,=]/g, (c) => `\\${c}`);
}

/**
 * Parses a `fieldSelector` as kube's `fields.ParseSelector` does: terms `field=value`,
 * `field==value` or `field!=value` separated by unescaped commas; empty terms are skipped; the
 * field name is not checked here (see `convertFieldSelector`). Terms are sorted by their raw
 * text before they are read, so with several bad terms the first in that order is reported.
 *
 * @throws SelectorParseError with kube's message, e.g.
 *   `invalid selector: 'a'; can't understand 'a'`.
 */
export function parseFieldSelector(text: string): FieldSelector {
  const parts = splitTerms(text).sort(compareGoStrings);
  const requirements: FieldRequirement[] = [];
  for (const part of parts) {
    if (part === '') continue;
    const term = splitTerm(part);
    if (!term) throw new SelectorParseError('field', `invalid selector: '${text}'; can't understand '${part}'`);
    const value = unescapeFieldValue(term.rhs);
    requirements.push(Object.freeze({ field: term.lhs, operator: term.op === '!=' ? '!=' : '=', value }));
  }
  if (requirements.length === 0) return EVERYTHING_FIELD_SELECTOR;
  return Object.freeze({ requirements: Object.freeze(requirements), empty: false });
}

/** A selector requiring `field=value` for every entry of `set` (kube's `SelectorFromSet`). */
export function fieldSelectorFromSet(set: Readonly<Record<string, string>>): FieldSelector {
  const requirements = Object.entries(set).map(([field, value]) =>
    Object.freeze({ field, operator: '=' as const, value }),
  );
  if (requirements.length === 0) return EVERYTHING_FIELD_SELECTOR;
  return Object.freeze({ requirements: Object.freeze(requirements), empty: false });
}

/**
 * Whether an object's field set satisfies every term. A field missing from the set counts as the
 * empty string (kube's `Set.Get`), so `x=` matches objects without `x` and `x!=` excludes them.
 */
export function matchesFields(selector: FieldSelector, fields: Readonly<Record<string, string>>): boolean {
  return selector.requirements.every((r) => {
    const actual = Object.hasOwn(fields, r.field) ? fields[r.field] : '';
    return r.operator === '=' ? actual === r.value : actual !== r.value;
  });
}

/** kube's `Selector.String()`: `field=value` / `field!=value` with values escaped, joined by `,`. */
export function fieldSelectorString(selector: FieldSelector): string {
  return selector.requirements.map((r) => `${r.field}${r.operator}${escapeFieldValue(r.value)}`).join(',');
}

/** kube's `RequiresExactMatch`: the value of the first `field=value` term on `field`, if any. */
export function fieldRequiresExactMatch(selector: FieldSelector, field: string): string | undefined {
  return selector.requirements.find((r) => r.field === field && r.operator === '=')?.value;
}

/**
 * The object name a selector pins, as kube's `SelectionPredicate.MatchesSingle` decides it: the
 * value of the first `metadata.name=<n>` (or `==`) term. Other terms may still filter that one
 * object. Used to serve `?fieldSelector=metadata.name=<n>` watches and lists as single-object ones.
 */
export function exactNameFromFieldSelector(selector: FieldSelector): string | undefined {
  return fieldRequiresExactMatch(selector, 'metadata.name');
}

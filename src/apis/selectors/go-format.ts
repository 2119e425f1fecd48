/**
 * The few pieces of Go formatting that leak into kube's selector and table messages: `%q`
 * quoting, `%#v` of a string slice, and Go's byte-wise string ordering.
 */

const PRINTABLE = /^[\p{L}\p{M}\p{N}\p{P}\p{S}]$/u;

const SIMPLE_ESCAPES: Readonly<Record<string, string>> = {
  '"': '\\"',
  '\\': '\\\\',
  '\x07': '\\a',
  '\b': '\\b',
  '\f': '\\f',
  '\n': '\\n',
  '\r': '\\r',
  '\t': '\\t',
  '\v': '\\v',
};

function hex(n: number, width: number): string {
  return n.toString(16).padStart(width, '0');
}

/**
 * Go's `strconv.Quote` (what `%q` prints for a string): printable runes stay, control characters
 * become `\xNN`, other unprintable runes `\uNNNN` or `\UNNNNNNNN`. A lone surrogate (which UTF-8
 * input cannot produce) is shown as U+FFFD, as Go shows invalid bytes' replacement.
 */
export function goQuote(value: string): string {
  let out = '"';
  for (const ch of value) {
    const simple = SIMPLE_ESCAPES[ch];
    if (simple !== undefined) {
      out += simple;
      continue;
    }
    let cp = ch.codePointAt(0)!;
    if (cp >= 0xd800 && cp <= 0xdfff) cp = 0xfffd;
    if (cp === 0x20 || PRINTABLE.test(String.fromCodePoint(cp))) out += String.fromCodePoint(cp);
    else if (cp < 0x20 || cp === 0x7f) out += `\\x${hex(cp, 2)}`;
    else if (cp < 0x10000) out += `\\u${hex(cp, 4)}`;
    else out += `\\U${hex(cp, 8)}`;
  }
  return `${out}"`;
}

/** `%#v` of a Go `[]string`: `[]string{"a", "b"}`, or `[]string(nil)` for a nil slice. */
export function goStringSlice(values: readonly string[] | null | undefined): string {
  if (values === null || values === undefined) return '[]string(nil)';
  return `[]string{${values.map(goQuote).join(', ')}}`;
}

/**
 * Go's `<` on strings: byte order of the UTF-8 encodings, which is code-point order (UTF-16 code
 * units order characters above U+E000 before astral ones; Go does not).
 */
export function compareGoStrings(a: string, b: string): number {
  if (a === b) return 0;
  return Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'));
}

/**
 * The few pieces of Go formatting that leak into kube's selector and table messages: `%#v` of a
 * string slice and Go's byte-wise string ordering (`%q` quoting is `goQuote` in util/go-strconv).
 */
import { goQuote } from '../../util/go-strconv.js';

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

/**
 * The few pieces of Go formatting that leak into kube's selector and table messages: `%#v` of a
 * string slice (`%q` quoting is `goQuote` in util/go-strconv, Go's string order `compareGoStrings`
 * in util/go-strings).
 */
import { goQuote } from '../../util/go-strconv.js';

/** `%#v` of a Go `[]string`: `[]string{"a", "b"}`, or `[]string(nil)` for a nil slice. */
export function goStringSlice(values: readonly string[] | null | undefined): string {
  if (values === null || values === undefined) return '[]string(nil)';
  return `[]string{${values.map(goQuote).join(', ')}}`;
}

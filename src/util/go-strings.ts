/**
 * Go's string ordering for JavaScript strings. Pure and synchronous.
 */

/** The code point at `i` (a lone surrogate reads as U+FFFD, as Go sees it after UTF-8 decoding). */
function codePointAt(s: string, i: number): number {
  const c = s.charCodeAt(i);
  if (c < 0xd800 || c > 0xdfff) return c;
  if (c <= 0xdbff && i + 1 < s.length) {
    const d = s.charCodeAt(i + 1);
    if (d >= 0xdc00 && d <= 0xdfff) return 0x10000 + ((c - 0xd800) << 10) + (d - 0xdc00);
  }
  return 0xfffd;
}

/**
 * Go's `strings.Compare` (and `<`, `sort.Strings`, etcd and LMDB key order): the byte order of
 * the UTF-8 encodings, which is code-point order. JavaScript's `<` compares UTF-16 code units,
 * which disagrees when a character in U+E000..U+FFFF meets one past U+FFFF (a surrogate pair):
 * `'\uffff' < '\u{10000}'` in Go, the reverse in JavaScript. A lone surrogate compares as U+FFFD,
 * the character Go's UTF-8 encoding of it holds. Returns a negative number, 0 or a positive
 * number; allocation-free.
 */
export function compareGoStrings(a: string, b: string): number {
  if (a === b) return 0;
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(j);
    // Below the surrogates a code unit is its code point and one UTF-8 sequence.
    if (x < 0xd800 && y < 0xd800) {
      if (x !== y) return x - y;
      i++;
      j++;
      continue;
    }
    const cx = codePointAt(a, i);
    const cy = codePointAt(b, j);
    if (cx !== cy) return cx - cy;
    i += cx > 0xffff ? 2 : 1;
    j += cy > 0xffff ? 2 : 1;
  }
  return i < a.length ? 1 : j < b.length ? -1 : 0;
}

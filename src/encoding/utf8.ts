/**
 * UTF-8 to string the way Go sees invalid bytes: each byte that does not start a valid
 * sequence becomes one U+FFFD (`utf8.DecodeRune` with size 1), where the WHATWG decoder of
 * `TextDecoder`/`Buffer#toString` folds a truncated sequence into a single U+FFFD. Use it to
 * turn request bodies into text so that strings keep the same replacement characters as in
 * kube-apiserver. Pure.
 */

const strict = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** Length of the valid UTF-8 sequence at `i`, or 0 when Go would decode `RuneError` size 1. */
function sequenceLength(b: Uint8Array, i: number): number {
  const c = b[i];
  const cont = (k: number, lo = 0x80, hi = 0xbf) => i + k < b.length && b[i + k] >= lo && b[i + k] <= hi;
  if (c >= 0xc2 && c <= 0xdf) return cont(1) ? 2 : 0;
  if (c >= 0xe0 && c <= 0xef) {
    const lo = c === 0xe0 ? 0xa0 : 0x80;
    const hi = c === 0xed ? 0x9f : 0xbf;
    return cont(1, lo, hi) && cont(2) ? 3 : 0;
  }
  if (c >= 0xf0 && c <= 0xf4) {
    const lo = c === 0xf0 ? 0x90 : 0x80;
    const hi = c === 0xf4 ? 0x8f : 0xbf;
    return cont(1, lo, hi) && cont(2) && cont(3) ? 4 : 0;
  }
  return 0;
}

/** Decodes `bytes` as UTF-8, replacing every invalid byte by U+FFFD, as Go does. */
export function decodeUtf8Lenient(bytes: Uint8Array): string {
  try {
    return strict.decode(bytes);
  } catch {
    // Fall through to the byte-by-byte decoding below.
  }
  const parts: string[] = [];
  let start = 0;
  let i = 0;
  while (i < bytes.length) {
    if (bytes[i] < 0x80) {
      i++;
      continue;
    }
    const n = sequenceLength(bytes, i);
    if (n > 0) {
      i += n;
      continue;
    }
    parts.push(strict.decode(bytes.subarray(start, i)), '\ufffd');
    i++;
    start = i;
  }
  parts.push(strict.decode(bytes.subarray(start)));
  return parts.join('');
}

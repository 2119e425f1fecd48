/**
 * Storage keys as the LMDB backend stores them: lmdb's default key encoding writes a string as
 * its UTF-8 bytes (escaping only control characters), so keys sort in byte order, as etcd's do.
 */

/** lmdb's limit for a key with the default 4 KiB page size. */
export const MAX_KEY_BYTES = 1978;

/** A key the LMDB backend cannot store; raised before anything is written. */
export class InvalidKeyError extends RangeError {
  constructor(
    readonly key: string,
    reason: string,
  ) {
    super(`invalid storage key ${JSON.stringify(key.length > 80 ? `${key.slice(0, 80)}…` : key)}: ${reason}`);
    this.name = 'InvalidKeyError';
  }
}

/**
 * Throws InvalidKeyError for keys lmdb cannot store verbatim: empty keys, keys with control
 * characters (lmdb escapes those, which would break byte ordering) and keys over
 * {@link MAX_KEY_BYTES} bytes of UTF-8.
 */
export function assertValidKey(key: string): void {
  if (key.length === 0) throw new InvalidKeyError(key, 'the key is empty');
  if (hasControlCharacter(key)) throw new InvalidKeyError(key, 'control characters are not allowed');
  // Every UTF-16 code unit encodes to at most 3 bytes, so short keys skip the exact count.
  if (key.length * 3 > MAX_KEY_BYTES) {
    const bytes = Buffer.byteLength(key, 'utf8');
    if (bytes > MAX_KEY_BYTES) {
      throw new InvalidKeyError(key, `${bytes} bytes of UTF-8 exceed the maximum of ${MAX_KEY_BYTES}`);
    }
  }
}

/** Prefixes follow the key rules, except that the empty prefix (every key) is allowed. */
export function assertValidPrefix(prefix: string): void {
  if (prefix.length > 0) assertValidKey(prefix);
}

function hasControlCharacter(key: string): boolean {
  for (let i = 0; i < key.length; i++) if (key.charCodeAt(i) < 0x20) return true;
  return false;
}

/**
 * Serialize once per media type: remembers the bytes an object was encoded to, per media type, for
 * as long as the object lives. The watch cache hands the same object instance to every list, get
 * and watch that includes it (and the same event object to every watcher), so the response
 * writers encode each object once for all readers asking for the same media type.
 *
 * Keyed by object identity in a WeakMap: entries vanish with the object (evicted from the event
 * buffer and replaced in the state), so the cache never outlives the data. `encode` must be pure:
 * the same object and media type always yield the same bytes.
 */
export class EncodingCache {
  private readonly byObject = new WeakMap<object, Map<string, Uint8Array>>();
  private hitCount = 0;
  private missCount = 0;

  /** The bytes of `obj` in `mediaType`, encoded by `encode` on the first request only. */
  encode<O extends object>(obj: O, mediaType: string, encode: (obj: O) => Uint8Array): Uint8Array {
    let perType = this.byObject.get(obj);
    const hit = perType?.get(mediaType);
    if (hit !== undefined) {
      this.hitCount++;
      return hit;
    }
    this.missCount++;
    const bytes = encode(obj);
    if (perType === undefined) {
      perType = new Map();
      this.byObject.set(obj, perType);
    }
    perType.set(mediaType, bytes);
    return bytes;
  }

  /** The bytes of `obj` in `mediaType` if they were encoded already (nothing is encoded here). */
  cached(obj: object, mediaType: string): Uint8Array | undefined {
    return this.byObject.get(obj)?.get(mediaType);
  }

  /** Lookups answered from the cache and lookups that encoded, since creation. */
  stats(): { hits: number; misses: number } {
    return { hits: this.hitCount, misses: this.missCount };
  }
}

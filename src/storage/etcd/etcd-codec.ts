import type { IKeyValue } from 'etcd3';
import { CorruptValueError } from '../errors.js';
import type { KeyValue } from '../store.js';

/**
 * Every value Orch writes to etcd starts with these 4 bytes (`orc\0`). A value under our keys
 * without it was written by someone else and is reported as corrupt rather than handed to
 * decoders. Version bumps of the framing would change the last byte.
 */
export const VALUE_MAGIC: Buffer = Buffer.from([0x6f, 0x72, 0x63, 0x00]);

const EMPTY = new Uint8Array(0);
const ZERO_BYTE = Buffer.from([0]);

/** The stored form of `value`: {@link VALUE_MAGIC} followed by the caller's bytes. */
export function frameValue(value: Uint8Array): Buffer {
  const framed = Buffer.allocUnsafe(VALUE_MAGIC.length + value.length);
  VALUE_MAGIC.copy(framed, 0);
  framed.set(value, VALUE_MAGIC.length);
  return framed;
}

/** A key range on the wire: `[key, rangeEnd)`. */
export interface WireRange {
  readonly key: Buffer;
  readonly rangeEnd: Buffer;
}

/**
 * Translates between Store keys and etcd keys. A non-empty `namespace` is prepended to every key
 * on the wire and stripped from every key read back (like etcd's client namespaces), so several
 * independent stores can share one etcd.
 */
export class KeyCodec {
  private readonly namespace: Buffer;

  constructor(namespace = '') {
    this.namespace = Buffer.from(namespace, 'utf8');
  }

  encode(key: string): Buffer {
    if (this.namespace.length === 0) return Buffer.from(key, 'utf8');
    return Buffer.concat([this.namespace, Buffer.from(key, 'utf8')]);
  }

  decode(wireKey: Buffer): string {
    return wireKey.toString('utf8', this.namespace.length);
  }

  /** Keys starting with `prefix`; when `startAfter` is set, only those strictly greater. */
  prefixRange(prefix: string, startAfter?: string): WireRange {
    const start = this.encode(prefix);
    const rangeEnd = prefixEnd(start);
    if (startAfter === undefined) return { key: start, rangeEnd };
    // The smallest key strictly greater than startAfter is startAfter followed by a zero byte.
    const after = Buffer.concat([this.encode(startAfter), ZERO_BYTE]);
    return { key: Buffer.compare(after, start) > 0 ? after : start, rangeEnd };
  }

  /** Converts an etcd key-value; a value without our header yields an item with `corrupt` set. */
  decodeKeyValue(kv: IKeyValue): KeyValue {
    const key = this.decode(kv.key);
    const createRevision = BigInt(kv.create_revision);
    const modRevision = BigInt(kv.mod_revision);
    const raw = kv.value;
    if (
      raw.length >= VALUE_MAGIC.length &&
      raw.compare(VALUE_MAGIC, 0, VALUE_MAGIC.length, 0, VALUE_MAGIC.length) === 0
    ) {
      // A plain Uint8Array view (no copy): callers compare values structurally, and a Buffer
      // would not deep-equal a Uint8Array.
      const value = new Uint8Array(raw.buffer, raw.byteOffset + VALUE_MAGIC.length, raw.length - VALUE_MAGIC.length);
      return { key, value, createRevision, modRevision };
    }
    const corrupt = new CorruptValueError(key, 'the stored value lacks the Orch value header (foreign writer?)');
    return { key, value: EMPTY, createRevision, modRevision, corrupt };
  }
}

/** The end of the etcd range covering every key that starts with `prefix`. */
export function prefixEnd(prefix: Buffer): Buffer {
  const end = Buffer.from(prefix);
  for (let i = end.length - 1; i >= 0; i--) {
    if (end[i] < 0xff) {
      end[i]++;
      return end.subarray(0, i + 1);
    }
  }
  // All 0xff (or empty): etcd reads a single zero byte as "to the end of the keyspace".
  return Buffer.from(ZERO_BYTE);
}

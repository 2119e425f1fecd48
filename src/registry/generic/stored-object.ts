import { isUtf8 } from 'node:buffer';
import { inObjectMetaOrder } from '../../apis/meta/object-meta-order.js';
import type { ApiObject } from '../../apis/object.js';
import type { AsyncStorageVersionConversion, ResourceDefinition } from '../../apis/resource-definition.js';
import { isPlainObject } from '../../apis/schema/json-value.js';
import { CorruptValueError } from '../../storage/errors.js';
import type { KeyValue } from '../../storage/store.js';
import { isJsonObjectWithMetadata, type MetadataSpan } from '../../util/json-object-check.js';
import { parseJson, stringifyJson } from '../../util/json-text.js';
import { type MetadataEnd, namesResourceVersion, needsGoEscaping } from './stored-json.js';

const encoder = new TextEncoder();
const decoder = new TextDecoder('utf-8', { fatal: true });

/**
 * Objects are stored as JSON without `metadata.resourceVersion`: the store's modRevision is
 * the resourceVersion, set on every read, so a stored value never disagrees with its revision.
 * Integers beyond 2^53 are stored and read back exactly (`bigint`s in the object). Metadata
 * fields are stored in one order (Go's), whatever order a write path added them in.
 */
export function encodeStored(obj: ApiObject, known?: KnownJson): Uint8Array {
  return encodeStoredText(obj, known).bytes;
}

/**
 * The JSON text of a value whose text is already known (a `fieldsV1` the field manager shares
 * between creates), or undefined: that value is serialized as usual.
 */
export type KnownJson = (value: unknown) => string | undefined;

/** The stored bytes of an object, and where in them its `metadata` object opens and closes. */
interface EncodedStored {
  readonly bytes: Uint8Array;
  /** Byte offsets of the braces of `metadata` (both -1 when it is not an object). */
  readonly open: number;
  readonly close: number;
}

/**
 * {@link encodeStored}, written member by member (the same text `JSON.stringify` gives) so that
 * where `metadata` lies is known without scanning the bytes again.
 */
function encodeStoredText(obj: ApiObject, known: KnownJson | undefined): EncodedStored {
  const { resourceVersion: _rv, ...meta } = obj.metadata;
  const source = obj as unknown as Record<string, unknown>;
  let text = '{';
  let open = -1;
  let close = -1;
  for (const key of Object.keys(source)) {
    const json =
      key !== 'metadata'
        ? stringifyJson(source[key])
        : known
          ? metadataJson(inObjectMetaOrder(meta), known)
          : stringifyJson(inObjectMetaOrder(meta));
    if (json === undefined) continue;
    text += `${text.length > 1 ? ',' : ''}${JSON.stringify(key)}:`;
    if (key === 'metadata' && json.charCodeAt(0) === 0x7b) {
      open = text.length;
      close = open + json.length - 1;
    }
    text += json;
  }
  text += '}';
  const bytes = encoder.encode(text);
  // Offsets count UTF-16 units: bytes differ only after a character beyond ASCII.
  if (bytes.length !== text.length && open >= 0) {
    open = Buffer.byteLength(text.slice(0, open));
    close = Buffer.byteLength(text.slice(0, close));
  }
  return { bytes, open, close };
}

/**
 * `stringifyJson(meta)`, with the `fieldsV1` of each managedFields entry copied from its known
 * text where it has one. managedFields comes last in Go's order of metadata, and `fieldsV1` last in
 * an entry but for `subresource`: each is written after the rest, and a value that has anything
 * after it is serialized whole.
 */
function metadataJson(meta: Record<string, unknown>, known: KnownJson): string | undefined {
  const entries = meta.managedFields;
  if (!Array.isArray(entries) || lastKey(meta) !== 'managedFields') return stringifyJson(meta);
  // Most writes (every update) have no entry with a known text: one pass finds that out.
  let first = 0;
  let firstText: string | undefined;
  for (; first < entries.length; first++) {
    firstText = knownFieldsV1(entries[first], known);
    if (firstText !== undefined) break;
  }
  if (firstText === undefined) return stringifyJson(meta);
  let list = '';
  for (let i = 0; i < entries.length; i++) {
    const entry: unknown = entries[i];
    const fieldsV1 = i < first ? undefined : i === first ? firstText : knownFieldsV1(entry, known);
    if (i > 0) list += ',';
    // An item JSON has no form for is written as JSON.stringify writes it.
    if (fieldsV1 === undefined) list += stringifyJson(entry) ?? 'null';
    else list += withLastMember(stringifyJson({ ...(entry as object), fieldsV1: undefined })!, 'fieldsV1', fieldsV1);
  }
  return withLastMember(stringifyJson({ ...meta, managedFields: undefined })!, 'managedFields', `[${list}]`);
}

/** The known text of a managedFields entry's `fieldsV1`, when it is its last member. */
function knownFieldsV1(entry: unknown, known: KnownJson): string | undefined {
  return isPlainObject(entry) && lastKey(entry) === 'fieldsV1' ? known(entry.fieldsV1) : undefined;
}

/** The JSON text of object `json` with member `key` (whose value is the text `value`) added last. */
function withLastMember(json: string, key: string, value: string): string {
  return `${json.length > 2 ? `${json.slice(0, -1)},` : '{'}"${key}":${value}}`;
}

function lastKey(obj: object): string | undefined {
  let last: string | undefined;
  for (const key in obj) last = key;
  return last;
}

/** Decodes a stored value; throws CorruptValueError when it is not a stored object. */
export function decodeStored(kv: KeyValue): ApiObject {
  const obj = parseStored(kv, parseJson);
  obj.metadata.resourceVersion = kv.modRevision.toString();
  return obj;
}

/**
 * Throws what {@link decodeStored} throws for a value that is not a stored object, without
 * building the object it would return (integers beyond 2^53 need not be exact to be checked).
 * Most values pass a scan of their bytes that builds nothing (UTF-8, then JSON whose top level is
 * an object with an object `metadata`); the rest, and every value that fails, are parsed, so
 * what is rejected, and the error, are decodeStored's. True when the scan passed the value: then
 * `found` tells where its `metadata` object is.
 */
export function checkStored(kv: KeyValue, found?: MetadataSpan): boolean {
  const bytes = kv.value;
  if (!kv.corrupt && isUtf8(bytes) && isJsonObjectWithMetadata(bytes, bomLength(bytes), found)) return true;
  parseStored(kv, JSON.parse);
  return false;
}

/** 3 when `bytes` start with a UTF-8 byte-order mark (which the decoder drops), else 0. */
function bomLength(bytes: Uint8Array): number {
  return bytes.length >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0;
}

function parseStored(kv: KeyValue, parse: (text: string) => unknown): ApiObject {
  if (kv.corrupt) throw kv.corrupt;
  let obj: ApiObject;
  try {
    obj = parse(decoder.decode(kv.value)) as ApiObject;
  } catch (e) {
    throw new CorruptValueError(kv.key, 'value is not valid JSON', { cause: e });
  }
  if (typeof obj !== 'object' || obj === null || typeof obj.metadata !== 'object' || obj.metadata === null) {
    throw new CorruptValueError(kv.key, 'value is not an object with metadata');
  }
  return obj;
}

export function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** How one resource definition's objects go into the store and come back. */
export interface StoredCodec {
  /** The stored form of an object of the definition's version (see `encodeStored`). */
  encode(obj: ApiObject): Uint8Array;
  /** A stored value as an object of the definition's version; CorruptValueError when it is not one. */
  decode(kv: KeyValue): ApiObject;
  /**
   * Present when the conversion needs I/O: `decode` then returns stored objects as they are
   * stored and `encode` takes objects already in the storage version; the registry converts
   * with this in batches (see stored-conversion.ts). Absent: `encode`/`decode` convert.
   */
  readonly async?: AsyncStorageVersionConversion;
  /** True when `decode` converts: the stored bytes are not the object as served. */
  readonly convertsOnRead?: boolean;
  /**
   * For the very array `encode` returned (a stored object by construction, which `checkStored`
   * would scan in vain: the watch cache of an in-process store receives the writer's own bytes),
   * where a response writes the resourceVersion in, as `findMetadataEnd` would find it; null when
   * the bytes cannot go out as they are (see `servedJsonOfStored`). Undefined for arrays from
   * anywhere else (a store read, an etcd watch), which are never known.
   */
  encodedMetadataEnd?(value: Uint8Array): MetadataEnd | null | undefined;
}

/**
 * The codec of objects stored as they are served. It remembers the arrays it encoded (weakly:
 * each is forgotten once nothing else holds it) with where their metadata ends, for
 * {@link StoredCodec.encodedMetadataEnd}; nothing writes into an encoded array afterwards
 * (responses copy it).
 */
function plainCodec(known: KnownJson | undefined): StoredCodec {
  const encoded = new WeakMap<Uint8Array, MetadataEnd | null>();
  return {
    encode(obj) {
      const { bytes, open, close } = encodeStoredText(obj, known);
      const servable = open >= 0 && !needsGoEscaping(bytes) && !namesResourceVersion(bytes, open, close);
      encoded.set(bytes, servable ? { close, empty: close === open + 1 } : null);
      return bytes;
    },
    decode: decodeStored,
    encodedMetadataEnd: (value) => encoded.get(value),
  };
}

/**
 * The codec of a definition: objects as they are, or, for a definition with a storage version,
 * converted to that version on the way in and back on the way out. A stored value of another
 * version than the storage version is returned as it is, unless the conversion reads every version.
 * An asynchronous conversion is left to the registry (the codec only carries it). `known` gives
 * the text of values the encoding may copy instead of serializing (see {@link KnownJson}).
 */
export function storedCodec(def: Pick<ResourceDefinition, 'storageVersion'>, known?: KnownJson): StoredCodec {
  const conversion = def.storageVersion;
  if (!conversion) return plainCodec(known);
  if ('async' in conversion) {
    // Writes convert first (stored-conversion.ts); deletes write back what they read, in the
    // version it was stored in.
    return {
      encode: encodeStored,
      decode: decodeStored,
      async: conversion,
    };
  }
  return {
    convertsOnRead: true,
    encode: (obj) => encodeStored(conversion.toStorage(obj)),
    decode(kv) {
      const stored = decodeStored(kv);
      if (stored.apiVersion !== conversion.apiVersion && !conversion.readsEveryVersion) return stored;
      const obj = conversion.fromStorage(stored);
      obj.metadata.resourceVersion = stored.metadata.resourceVersion;
      return obj;
    },
  };
}

import type { ApiObject } from '../../apis/object.js';
import type { KeyValue } from '../../storage/store.js';
import type { EncodedObject } from '../types.js';
import { findMetadataEnd, type MetadataEnd, needsGoEscaping, withResourceVersion } from './stored-json.js';
import type { StoredCodec } from './stored-object.js';

/** What every cached object of one resource shares: how to decode it and what selectors read. */
export interface CachedObjectType {
  readonly codec: StoredCodec;
  /** The field-selector values of an object (the definition's field label support). */
  readonly fieldSet: (obj: ApiObject) => Record<string, string>;
}

/** Memo of {@link CachedObject.encodedEnd}: not yet computed, or not writable from the bytes. */
const UNKNOWN = 0;
const NOT_FROM_BYTES = 1;

/**
 * One object as the watch cache keeps it: the stored bytes and their revision, not a decoded
 * object graph (which costs 8–10× the JSON). Responses in JSON copy the bytes with the
 * resourceVersion written in; everything else asks for {@link CachedObject.object}, decoded on
 * demand and shared read-only while anyone holds it (a weak reference, so an unused decoded
 * object costs nothing). Labels and field-selector values are kept once computed: selectors
 * read them without decoding again.
 */
export class CachedObject implements EncodedObject {
  private decoded: WeakRef<ApiObject> | undefined;
  private labelsMemo: Readonly<Record<string, string>> | undefined;
  private fieldsMemo: Readonly<Record<string, string>> | undefined;
  private end: MetadataEnd | typeof UNKNOWN | typeof NOT_FROM_BYTES = UNKNOWN;

  private constructor(
    private readonly kv: KeyValue,
    private readonly type: CachedObjectType,
  ) {}

  /**
   * The watch cache's decoder: decodes once to check the value (a corrupt one throws, and the
   * cache records it as unreadable) and keeps only the bytes.
   */
  static decoder(type: CachedObjectType): (kv: KeyValue) => CachedObject {
    return (kv) => {
      type.codec.decode(kv);
      return new CachedObject(kv, type);
    };
  }

  get key(): string {
    return this.kv.key;
  }

  get modRevision(): bigint {
    return this.kv.modRevision;
  }

  /** The decoded object (shared: never mutate it). */
  get object(): ApiObject {
    const held = this.decoded?.deref();
    if (held) return held;
    const obj = this.type.codec.decode(this.kv);
    this.decoded = new WeakRef(obj);
    return obj;
  }

  /** `metadata.labels` (an empty record when there are none). */
  labels(): Readonly<Record<string, string>> {
    this.labelsMemo ??= this.object.metadata.labels ?? NO_LABELS;
    return this.labelsMemo;
  }

  /** The values field selectors compare. */
  fields(): Readonly<Record<string, string>> {
    this.fieldsMemo ??= this.type.fieldSet(this.object);
    return this.fieldsMemo;
  }

  /**
   * The compact JSON a response writes for the object (`encode` is the writer's encoder of a
   * decoded object), followed by `suffix`: the stored bytes
   * with the resourceVersion written in when they are the object as served (no storage version
   * to convert from, nothing Go's encoder escapes), else the decoded object encoded.
   */
  json(encode: (obj: ApiObject) => string, suffix = ''): Uint8Array {
    if (this.end === UNKNOWN) this.end = this.bytesEnd() ?? NOT_FROM_BYTES;
    if (this.end === NOT_FROM_BYTES) return Buffer.from(`${encode(this.object)}${suffix}`);
    return withResourceVersion(this.kv.value, this.end, this.kv.modRevision.toString(), suffix);
  }

  private bytesEnd(): MetadataEnd | undefined {
    if (this.type.codec.async || this.type.codec.convertsOnRead || needsGoEscaping(this.kv.value)) return undefined;
    return findMetadataEnd(this.kv.value);
  }
}

const NO_LABELS: Readonly<Record<string, string>> = Object.freeze({});

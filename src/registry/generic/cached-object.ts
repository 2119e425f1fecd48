import type { ApiObject } from '../../apis/object.js';
import { encodeJsonCompact, type JsonPart, partLength, writePart, writeSpliced } from '../../encoding/index.js';
import type { KeyValue, StoredValues } from '../../storage/store.js';
import type { MetadataSpan } from '../../util/json-object-check.js';
import type { EncodedObject, ObjectList } from '../types.js';
import { findMetadataEnd, type MetadataEnd, namesResourceVersion, needsGoEscaping } from './stored-json.js';
import { checkStored, type StoredCodec } from './stored-object.js';

/** What every cached object of one resource shares: how to decode it and what selectors read. */
export interface CachedObjectType {
  readonly codec: StoredCodec;
  /** The field-selector values of an object (the definition's field label support). */
  readonly fieldSet: (obj: ApiObject) => Record<string, string>;
  /** Whether keys end in `<namespace>/<name>` (else in `<name>`). */
  readonly namespaced: boolean;
  /** The resource's recently decoded objects, shared by whoever reads them meanwhile. */
  readonly recent?: RecentlyDecoded;
  /** The resource's recently served response bodies (see {@link CachedObject.json}). */
  readonly bodies?: RecentBodies;
}

/**
 * The last few objects of one resource that were decoded (least recently used out first): one
 * change read by several in-process watchers, or one object read again and again by a
 * controller, is decoded once and shared. Bounded, so a pass over every object keeps none of
 * them alive (a weak reference would keep each one alive until the end of the pass).
 */
export class RecentlyDecoded {
  private readonly objects = new Map<object, ApiObject>();

  constructor(private readonly capacity = 256) {}

  get(holder: object): ApiObject | undefined {
    const obj = this.objects.get(holder);
    if (obj === undefined) return undefined;
    this.objects.delete(holder);
    this.objects.set(holder, obj);
    return obj;
  }

  set(holder: object, obj: ApiObject): void {
    this.objects.set(holder, obj);
    if (this.objects.size > this.capacity) {
      const oldest = this.objects.keys().next().value;
      if (oldest !== undefined) this.objects.delete(oldest);
    }
  }
}

/** One kept response body: the object's JSON followed by `suffix`. */
interface KeptBody {
  readonly suffix: string;
  readonly bytes: Uint8Array;
}

/**
 * The response bodies of the last few objects of one resource a GET served (first in, first
 * out): a client polling one object gets the same bytes each time, without reading them from the
 * store again. Bounded in count and in bytes (a body larger than an eighth of the byte budget is
 * never kept), so memory stays what the cache keeps plus a few small bodies. Each kept body is a
 * buffer of its own (not a slice of Node's shared pool, which it would keep alive).
 */
export class RecentBodies {
  private readonly bodies = new Map<object, KeptBody>();
  private bytes = 0;

  constructor(
    private readonly capacity = 64,
    private readonly maxBytes = 1 << 20,
  ) {}

  /** Whether a body of `size` bytes would be kept. */
  keeps(size: number): boolean {
    return size * 8 <= this.maxBytes;
  }

  get(holder: object, suffix: string): Uint8Array | undefined {
    const kept = this.bodies.get(holder);
    return kept !== undefined && kept.suffix === suffix ? kept.bytes : undefined;
  }

  set(holder: object, suffix: string, bytes: Uint8Array): void {
    if (!this.keeps(bytes.length)) return;
    const bodies = this.bodies;
    const replaced = bodies.get(holder);
    if (replaced !== undefined) {
      bodies.delete(holder);
      this.bytes -= replaced.bytes.length;
    }
    bodies.set(holder, { suffix, bytes });
    this.bytes += bytes.length;
    while (bodies.size > this.capacity || this.bytes > this.maxBytes) {
      const [oldest, kept] = bodies.entries().next().value as [object, KeptBody];
      bodies.delete(oldest);
      this.bytes -= kept.bytes.length;
    }
  }
}

/**
 * The memo of {@link CachedObject} `end` from a check's scan of the stored value: where its
 * `metadata` object closes, or NOT_FROM_BYTES (Go escapes something, metadata is an array or
 * already names a resourceVersion).
 */
function bytesEndFromScan(value: Uint8Array, found: MetadataSpan): number {
  // A byte-order mark (which the decoder drops) would go out with the bytes.
  if (found.open < 0 || value[0] === 0xef || needsGoEscaping(value)) return NOT_FROM_BYTES;
  const { open, close } = found;
  if (namesResourceVersion(value, open, close)) return NOT_FROM_BYTES;
  let k = open + 1;
  while (k < close && (value[k] === 0x20 || value[k] === 0x0a || value[k] === 0x0d || value[k] === 0x09)) k++;
  return packedEnd(close, k === close);
}

/** Where metadata closes, and whether it is empty, as the memo of {@link CachedObject} `end` holds them. */
function packedEnd(close: number, empty: boolean): number {
  return close * 2 + (empty ? 1 : 0);
}

const COMMA = 0x2c;
const QUOTE = 0x22;
/** What is written before a resourceVersion's digits (then a closing quote). */
const RESOURCE_VERSION_MEMBER = '"resourceVersion":"';
const bufferCopy = Buffer.prototype.copy;

/** How many decimal digits `n` (not negative) has. */
function decimalDigits(n: bigint): number {
  let v = Number(n);
  if (!Number.isSafeInteger(v)) return n.toString().length;
  let digits = 1;
  while (v >= 10) {
    v = Math.floor(v / 10);
    digits++;
  }
  return digits;
}

/** Writes `n`'s decimal digits into `out` at `at` without making a string; returns the offset after them. */
function writeDecimal(out: Buffer, at: number, n: bigint): number {
  let v = Number(n);
  if (!Number.isSafeInteger(v)) return at + out.write(n.toString(), at, 'latin1');
  const end = at + decimalDigits(n);
  let p = end;
  do {
    out[--p] = 0x30 + (v % 10);
    v = Math.floor(v / 10);
  } while (v > 0);
  return end;
}

/** The name of the kept JSON form of an object not served from its stored bytes. */
const JSON_FORM = 'json';

function encodeJsonBytes(obj: ApiObject): Uint8Array {
  return Buffer.from(encodeJsonCompact(obj));
}

/** Memo of where metadata ends (`close * 2 + (empty ? 1 : 0)`), or one of these. */
const UNKNOWN = -1;
const NOT_FROM_BYTES = -2;

/**
 * One object as the watch cache keeps it: the stored bytes and their revision, not a decoded
 * object graph (which costs 8–10× the JSON). Responses in JSON copy the bytes with the
 * resourceVersion written in; everything else asks for {@link CachedObject.object}, decoded on
 * demand and shared read-only while it is among the resource's recently decoded objects. Labels and field-selector values are kept once computed: selectors
 * read them without decoding again.
 */
export class CachedObject implements EncodedObject {
  private labelsMemo: Readonly<Record<string, string>> | undefined;
  private fieldsMemo: Readonly<Record<string, string>> | undefined;
  private end = UNKNOWN;
  /** Serialized forms asked for (see {@link CachedObject.form}): name, bytes, name, bytes... */
  private forms: (string | Uint8Array)[] | undefined;

  private constructor(
    readonly key: string,
    readonly modRevision: bigint,
    /** The stored bytes, or the store's reader of them (see KeyValue.values). */
    private readonly source: Uint8Array | StoredValues,
    /** How many bytes the stored value has. */
    private readonly size: number,
    private readonly type: CachedObjectType,
  ) {}

  /**
   * The stored bytes, for use at once: a value read from the store on demand is a view of its
   * read buffer, valid only until the store is read again.
   */
  private bytesNow(): Uint8Array {
    const source = this.source;
    return source instanceof Uint8Array ? source : source.read(this.key, this.modRevision, true);
  }

  /**
   * The watch cache's decoder: decodes once to check the value (a corrupt one throws, and the
   * cache records it as unreadable) and keeps only the bytes, or, from a store that reads values
   * again on demand, only the way to read them (the store's pages hold them already). The very
   * bytes its codec just encoded (an in-process store's own write) are not checked again; where
   * their metadata ends is what the codec recorded when it wrote them.
   */
  static decoder(type: CachedObjectType): (kv: KeyValue) => CachedObject {
    const plain = !type.codec.async && !type.codec.convertsOnRead;
    const found: MetadataSpan = { open: -1, close: -1 };
    return (kv) => {
      const { key, modRevision } = kv;
      // Checked on a view of the store's buffer when there is one: nothing is copied to keep.
      const reload = kv.corrupt ? undefined : kv.values;
      const value = reload ? reload.read(key, modRevision, true) : kv.value;
      const checked = reload ? { key, modRevision, createRevision: kv.createRevision, value } : kv;
      // A converting codec can fail on a well-formed value too: check what it would do.
      let scanned = false;
      const known = plain && !kv.corrupt ? type.codec.encodedMetadataEnd?.(value) : undefined;
      if (!plain) type.codec.decode(checked);
      else if (known === undefined) scanned = checkStored(checked, found);
      const co = new CachedObject(key, modRevision, reload ?? value, value.length, type);
      // Where a response writes the resourceVersion in: as the encoder recorded it, or learnt
      // from the check's scan.
      if (known !== undefined) co.end = known === null ? NOT_FROM_BYTES : packedEnd(known.close, known.empty);
      else if (scanned && !type.codec.async) co.end = bytesEndFromScan(value, found);
      return co;
    };
  }

  /**
   * The same object holding its bytes (the watch cache's `retain`): one that read them from the
   * store on demand reads them now, while the store still keeps them, because in the history it
   * may be read after compaction removed them. Selected values already computed come along.
   */
  retained(): CachedObject {
    const source = this.source;
    if (source instanceof Uint8Array) return this;
    let bytes: Uint8Array;
    try {
      bytes = source.read(this.key, this.modRevision);
    } catch {
      // Already gone (compacted right after it was replaced): only what was computed remains.
      return this;
    }
    const copy = new CachedObject(this.key, this.modRevision, bytes, this.size, this.type);
    copy.forms = this.forms;
    copy.labelsMemo = this.labelsMemo;
    copy.fieldsMemo = this.fieldsMemo;
    copy.end = this.end;
    return copy;
  }

  /**
   * `<namespace>/<name>` (`/<name>` for a cluster-scoped object), read off the storage key: a
   * slice of the key string, no copy.
   */
  get namespacedName(): string {
    const key = this.key;
    const slash = key.lastIndexOf('/');
    return key.slice(this.type.namespaced ? key.lastIndexOf('/', slash - 1) + 1 : slash);
  }

  /** The decoded object (shared: never mutate it). */
  get object(): ApiObject {
    const recent = this.type.recent;
    const held = recent?.get(this);
    if (held) return held;
    const kv = { key: this.key, modRevision: this.modRevision, createRevision: 0n, value: this.bytesNow() };
    const obj = this.type.codec.decode(kv);
    recent?.set(this, obj);
    return obj;
  }

  /**
   * False when the stored bytes (JSON as the store writes it) do not contain `text`: then no key
   * of the object is spelled `text` (given with its quotes, `"nodeName"`). True when they do, and
   * always for objects converted when read (their bytes are not the object served).
   */
  mentions(text: string): boolean {
    const codec = this.type.codec;
    if (codec.async || codec.convertsOnRead) return true;
    const bytes = this.bytesNow();
    return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).indexOf(text) >= 0;
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
   * The compact JSON a response writes for the object, followed by `suffix` (see
   * {@link CachedObject.jsonPart}). The bytes are shared with later callers (the resource's
   * recently served bodies): never modify them.
   */
  json(suffix = ''): Uint8Array {
    const bodies = this.type.bodies;
    const kept = bodies?.get(this, suffix);
    if (kept !== undefined) return kept;
    const size = this.jsonSize() + suffix.length;
    const keep = bodies?.keeps(size) === true;
    const out = keep ? Buffer.allocUnsafeSlow(size) : Buffer.allocUnsafe(size);
    const at = this.writeJson(out, 0);
    if (suffix) out.write(suffix, at, 'latin1');
    if (keep) bodies?.set(this, suffix, out);
    return out;
  }

  /**
   * The compact JSON a response writes for the object: the stored bytes with the resourceVersion
   * written in when they are the object as served (no storage version to convert from, nothing
   * Go's encoder escapes), else the decoded object encoded.
   */
  jsonPart(): JsonPart {
    // Encoded from the decoded object once, then kept like the other forms: a GET, a list or a
    // watch event of the same object reuses it.
    if (this.resolvedEnd() === NOT_FROM_BYTES) return this.form(JSON_FORM, encodeJsonBytes);
    const at = Math.floor(this.end / 2);
    const insert = `${this.end & 1 ? '' : ','}"resourceVersion":"${this.modRevision}"`;
    const source = this.source;
    if (source instanceof Uint8Array) return { bytes: source, at, insert };
    // Read from the store when the response buffer exists: copied once, into it.
    const { key, modRevision } = this;
    return {
      size: this.size + insert.length,
      writeTo: (out, to) => writeSpliced(out, to, { bytes: source.read(key, modRevision, true), at, insert }),
    };
  }

  /** The size of {@link CachedObject.jsonPart}, worked out without making the part. */
  jsonSize(): number {
    const end = this.resolvedEnd();
    if (end === NOT_FROM_BYTES) return partLength(this.jsonPart());
    return this.size + (end & 1 ? 0 : 1) + RESOURCE_VERSION_MEMBER.length + decimalDigits(this.modRevision) + 1;
  }

  /**
   * Writes the bytes of {@link CachedObject.jsonPart} into `out` at `at`; returns the offset
   * after them. For an object served as its stored bytes nothing is made: the bytes are copied
   * and the resourceVersion written in place (a list writes 100,000 of these).
   */
  writeJson(out: Buffer, at: number): number {
    const end = this.resolvedEnd();
    if (end === NOT_FROM_BYTES) return writePart(out, at, this.jsonPart());
    const bytes = this.bytesNow();
    const split = Math.floor(end / 2);
    bufferCopy.call(bytes, out, at, 0, split);
    let to = at + split;
    if ((end & 1) === 0) out[to++] = COMMA;
    to += out.write(RESOURCE_VERSION_MEMBER, to, 'latin1');
    to = writeDecimal(out, to, this.modRevision);
    out[to++] = QUOTE;
    bufferCopy.call(bytes, out, to, split, bytes.length);
    return to + bytes.length - split;
  }

  /** The memo of where metadata ends, worked out from the bytes the first time. */
  private resolvedEnd(): number {
    if (this.end === UNKNOWN) {
      const end = this.bytesEnd(this.bytesNow());
      this.end = end === undefined ? NOT_FROM_BYTES : packedEnd(end.close, end.empty);
    }
    return this.end;
  }

  /**
   * A serialized form other than JSON, encoded from the decoded object the first time it is
   * asked for, then kept (clients that ask for one form ask again: Protobuf informers relist).
   */
  form(name: string, encode: (obj: ApiObject) => Uint8Array): Uint8Array {
    const forms = this.forms;
    if (forms) {
      for (let i = 0; i < forms.length; i += 2) if (forms[i] === name) return forms[i + 1] as Uint8Array;
    }
    const bytes = encode(this.object);
    this.forms = forms ? [...forms, name, bytes] : [name, bytes];
    return bytes;
  }

  private bytesEnd(value: Uint8Array): MetadataEnd | undefined {
    if (this.type.codec.async || this.type.codec.convertsOnRead || needsGoEscaping(value)) return undefined;
    return findMetadataEnd(value);
  }
}

const NO_LABELS: Readonly<Record<string, string>> = Object.freeze({});

/**
 * A list of cached objects (read from the watch cache, or from the store's values): its items
 * decoded only when someone reads `items` (a response in JSON copies `encodedItems`' bytes).
 */
export class CachedObjectList implements ObjectList {
  private decoded: ApiObject[] | undefined;
  // Own properties only once set, as on a plain list object.
  declare continue?: string;
  declare remainingItemCount?: number;

  constructor(
    readonly encodedItems: readonly CachedObject[],
    readonly resourceVersion: string,
  ) {}

  get items(): ApiObject[] {
    this.decoded ??= this.encodedItems.map((co) => co.object);
    return this.decoded;
  }
}

import { crc32 } from 'node:zlib';

/**
 * Binary framing of everything the LMDB backend stores. Every record carries a magic byte, a
 * format version and CRC-32 checksums, so a damaged record is detected on read instead of being
 * handed out as data. Revisions are JS numbers inside the backend (exact up to 2^53) and bigint
 * at the Store boundary.
 *
 * Log record (one per revision, `log` database, key = revision):
 *
 * | offset | size | field                                                            |
 * |--------|------|------------------------------------------------------------------|
 * | 0      | 1    | magic 0xE7                                                       |
 * | 1      | 1    | format version (1)                                               |
 * | 2      | 1    | type: 1 put, 2 delete                                            |
 * | 3      | 1    | reserved (0)                                                     |
 * | 4      | 4    | CRC-32 of bytes 12 .. 40+keyLength (the header below and the key) |
 * | 8      | 4    | CRC-32 of the value bytes                                        |
 * | 12     | 8    | modRevision (the revision of this record)                        |
 * | 20     | 8    | createRevision of the key's incarnation                          |
 * | 28     | 8    | previousRevision: the key's record before this one (0 for none)  |
 * | 36     | 4    | key length in bytes                                              |
 * | 40     | n    | key, UTF-8                                                       |
 * | 40+n   | rest | value (empty for a delete)                                       |
 *
 * The header and the value have separate checksums: a damaged value still yields its key and
 * revisions (the item is reported with `corrupt` set), a damaged header yields nothing but the
 * revision it is stored under (and, at best, its key: {@link recoverKeyOfDamagedRecord}).
 */

export const RECORD_PUT = 1;
export const RECORD_DELETE = 2;
export type RecordType = typeof RECORD_PUT | typeof RECORD_DELETE;

const LOG_MAGIC = 0xe7;
const COMPACTION_MAGIC = 0xe9;
const FORMAT_VERSION = 1;
const LOG_HEADER_BYTES = 40;
const COMPACTION_BYTES = 24;
const TWO_POW_32 = 0x1_0000_0000;

/** The largest revision the backend can represent exactly. */
export const MAX_REVISION = Number.MAX_SAFE_INTEGER;

/** A log record whose header checked out; `valueOk` tells whether the value did too. */
export interface LogRecord {
  readonly type: RecordType;
  readonly key: string;
  readonly modRevision: number;
  readonly createRevision: number;
  readonly previousRevision: number;
  /** A view into the buffer the record was decoded from. */
  readonly value: Uint8Array;
  readonly valueOk: boolean;
}

export interface LogRecordInput {
  readonly type: RecordType;
  readonly key: string;
  readonly modRevision: number;
  readonly createRevision: number;
  readonly previousRevision: number;
  readonly value?: Uint8Array;
}

export interface CompactionState {
  /** Reads and watches at or below this revision fail. */
  readonly compacted: number;
  /** The log has been cleaned up to this revision (it trails `compacted` while a compaction runs). */
  readonly cleaned: number;
}

function writeRevision(buf: Buffer, offset: number, revision: number): void {
  buf.writeUInt32BE(Math.floor(revision / TWO_POW_32), offset);
  buf.writeUInt32BE(revision % TWO_POW_32, offset + 4);
}

function readRevision(buf: Uint8Array, offset: number): number {
  const view = buf as Buffer;
  return view.readUInt32BE(offset) * TWO_POW_32 + view.readUInt32BE(offset + 4);
}

function checksum(buf: Uint8Array, start: number, end: number): number {
  return crc32(buf.subarray(start, end)) >>> 0;
}

/** CRC-32 (IEEE, the same as zlib's) table for {@link crc32Small}. */
const CRC_TABLE = (() => {
  const table = new Int32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c;
  }
  return table;
})();

/**
 * zlib's CRC-32 of `buf[start..end)`, computed in JS: for the few dozen bytes of a record
 * header this beats a native call (no view to allocate, no binding overhead), and it reads
 * `buf` only through its indices, so lmdb's shared read buffer needs no trimming.
 */
export function crc32Small(buf: Uint8Array, start: number, end: number): number {
  return (crcUpdate(-1, buf, start, end) ^ -1) >>> 0;
}

/** Continues a CRC-32 register `c` (start with -1, finish with `^ -1`) over `buf[start..end)`. */
function crcUpdate(c: number, buf: Uint8Array, start: number, end: number): number {
  for (let i = start; i < end; i++) c = CRC_TABLE[(c ^ buf[i]) & 0xff] ^ (c >>> 8);
  return c;
}

/** Bytes a log record of `key` (UTF-8 length `keyBytes`) and `valueBytes` of value takes. */
export function logRecordSize(keyBytes: number, valueBytes: number): number {
  return LOG_HEADER_BYTES + keyBytes + valueBytes;
}

/**
 * Encodes a log record into `buf`, which must be exactly
 * `logRecordSize(Buffer.byteLength(key), value.byteLength)` bytes; the value is copied.
 */
export function encodeLogRecordInto(buf: Buffer, input: LogRecordInput, keyBytes: number): Buffer {
  const value = input.value ?? EMPTY;
  const valueStart = LOG_HEADER_BYTES + keyBytes;
  buf[0] = LOG_MAGIC;
  buf[1] = FORMAT_VERSION;
  buf[2] = input.type;
  buf[3] = 0;
  writeRevision(buf, 12, input.modRevision);
  writeRevision(buf, 20, input.createRevision);
  writeRevision(buf, 28, input.previousRevision);
  buf.writeUInt32BE(keyBytes, 36);
  const { key } = input;
  let crc: number;
  if (keyBytes === key.length) {
    // An ASCII key (its UTF-8 length equals its length): written and checksummed in one pass.
    crc = crcUpdate(-1, buf, 12, LOG_HEADER_BYTES);
    for (let i = 0, at = LOG_HEADER_BYTES; i < keyBytes; i++, at++) {
      const c = key.charCodeAt(i);
      buf[at] = c;
      crc = CRC_TABLE[(crc ^ c) & 0xff] ^ (crc >>> 8);
    }
  } else {
    buf.write(key, LOG_HEADER_BYTES, keyBytes, 'utf8');
    crc = crcUpdate(-1, buf, 12, valueStart);
  }
  buf.set(value, valueStart);
  buf.writeUInt32BE((crc ^ -1) >>> 0, 4);
  buf.writeUInt32BE(crc32(value) >>> 0, 8);
  return buf;
}

/** The value checksum a log record's header holds (check the header first). */
export function valueChecksumOf(buf: Uint8Array): number {
  return (buf as Buffer).readUInt32BE(8);
}

export interface DecodeOptions {
  /** Verify the value checksum (default true); a header walk does not need it. */
  readonly checkValue?: boolean;
  /**
   * Copy the value out of `buf` (default false: `value` is a view). Needed when `buf` is
   * lmdb's shared read buffer; the copy comes from Node's buffer pool, which is cheaper than a
   * private allocation for small values.
   */
  readonly copyValue?: boolean;
  /** The key the caller already knows the record belongs to: skips decoding it. */
  readonly key?: string;
}

/**
 * Decodes a log record; undefined when its header is damaged (wrong magic, version, type,
 * length or checksum). `buf` spans exactly the record, or is lmdb's shared read buffer as
 * `getBinaryFast` returns it (only its `length` is trusted, never its `byteLength`).
 */
export function decodeLogRecord(buf: Uint8Array, options: DecodeOptions = {}): LogRecord | undefined {
  if (buf.length < LOG_HEADER_BYTES || buf[0] !== LOG_MAGIC || buf[1] !== FORMAT_VERSION) return undefined;
  const type = buf[2];
  if (type !== RECORD_PUT && type !== RECORD_DELETE) return undefined;
  const view = buf as Buffer;
  const keyBytes = view.readUInt32BE(36);
  const valueStart = LOG_HEADER_BYTES + keyBytes;
  const end = buf.length;
  if (valueStart > end) return undefined;
  if (crc32Small(buf, 12, valueStart) !== view.readUInt32BE(4)) return undefined;
  let value: Uint8Array;
  if (options.copyValue) {
    // Copy first, then checksum the copy: it is exact, so the native call needs no view.
    value = Buffer.allocUnsafe(end - valueStart);
    view.copy(value, 0, valueStart, end);
  } else {
    value = buf.subarray(valueStart, end);
  }
  const valueOk = options.checkValue === false || crc32(value) >>> 0 === view.readUInt32BE(8);
  return {
    type,
    key: options.key ?? Buffer.from(buf.buffer, buf.byteOffset + LOG_HEADER_BYTES, keyBytes).toString('utf8'),
    modRevision: readRevision(buf, 12),
    createRevision: readRevision(buf, 20),
    previousRevision: readRevision(buf, 28),
    value,
    valueOk,
  };
}

/**
 * The key bytes of a log record whose header failed its checksum, when they still decode: the
 * key length must fit the record and the bytes must be valid UTF-8. A best effort that lets the
 * store report the damage against the key instead of losing track of it.
 */
export function recoverKeyOfDamagedRecord(buf: Uint8Array): string | undefined {
  if (buf.length < LOG_HEADER_BYTES) return undefined;
  const keyBytes = (buf as Buffer).readUInt32BE(36);
  if (keyBytes === 0 || LOG_HEADER_BYTES + keyBytes > buf.length) return undefined;
  try {
    return STRICT_UTF8.decode(buf.subarray(LOG_HEADER_BYTES, LOG_HEADER_BYTES + keyBytes));
  } catch {
    return undefined;
  }
}

const STRICT_UTF8 = new TextDecoder('utf-8', { fatal: true });

export function encodeCompactionState(state: CompactionState): Buffer {
  const buf = Buffer.allocUnsafe(COMPACTION_BYTES);
  buf[0] = COMPACTION_MAGIC;
  buf[1] = FORMAT_VERSION;
  buf[2] = 0;
  buf[3] = 0;
  writeRevision(buf, 8, state.compacted);
  writeRevision(buf, 16, state.cleaned);
  buf.writeUInt32BE(checksum(buf, 8, COMPACTION_BYTES), 4);
  return buf;
}

/** Decodes the compaction state; throws when it is damaged (the store cannot run without it). */
export function decodeCompactionState(buf: Uint8Array | undefined): CompactionState {
  if (buf === undefined) return { compacted: 0, cleaned: 0 };
  if (
    buf.length !== COMPACTION_BYTES ||
    buf[0] !== COMPACTION_MAGIC ||
    buf[1] !== FORMAT_VERSION ||
    checksum(buf, 8, COMPACTION_BYTES) !== (buf as Buffer).readUInt32BE(4)
  ) {
    throw new Error('the compaction state record of the LMDB store is damaged');
  }
  return { compacted: readRevision(buf, 8), cleaned: readRevision(buf, 16) };
}

/**
 * A view of a buffer returned by lmdb's `getBinaryFast`, whose `byteLength` is that of lmdb's
 * whole shared read buffer; native functions such as crc32 must only see the value's bytes.
 */
export function exact(buf: Buffer): Buffer {
  return buf.subarray(0, buf.length);
}

/** Copy of the bytes of a log record with one byte of its value (or value checksum) flipped. */
export function damageLogRecord(buf: Uint8Array): Buffer {
  const copy = Buffer.from(buf);
  const keyBytes = copy.length >= LOG_HEADER_BYTES ? copy.readUInt32BE(36) : 0;
  const valueStart = LOG_HEADER_BYTES + keyBytes;
  const at = valueStart < copy.length ? valueStart + Math.floor((copy.length - valueStart) / 2) : 8;
  copy[at] ^= 0xff;
  return copy;
}

const EMPTY = new Uint8Array(0);

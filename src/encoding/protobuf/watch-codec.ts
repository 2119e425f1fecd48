import type { Status } from '../../apis/meta/status.js';
import type { ApiObject } from '../../apis/object.js';
import type { Schema } from '../../apis/schema/schema.js';
import { ProtobufDecodeError } from './errors.js';
import { decodeObject, type ExpectedType, peekTypeMeta } from './object-codec.js';
import { decodeStatus } from './status-codec.js';
import { ProtoReader } from './wire-reader.js';
import { ProtoWriter, WIRE_LEN } from './wire-writer.js';

/**
 * Protobuf watch streams, as kube-apiserver writes them and client-go reads them
 * (`application/vnd.kubernetes.protobuf;stream=watch`): a sequence of frames, each a 4-byte
 * big-endian length followed by a meta/v1 `WatchEvent` message `{string type = 1; RawExtension
 * object = 2}` written *without* prefix or envelope. `object.raw` holds the object's complete
 * enveloped document (`k8s\0` + `Unknown`), a `Status` for ERROR events.
 */

export interface ProtobufWatchEvent {
  /** ADDED, MODIFIED, DELETED, BOOKMARK or ERROR. */
  readonly type: string;
  /** The enveloped object document (from `encodeObject`, or `encodeStatus` for ERROR). */
  readonly object: Uint8Array;
}

const TAG_TYPE = 0x0a;
const TAG_OBJECT = 0x12;
const TAG_RAW = 0x0a;
const FRAME_HEADER = 4;
/** Largest frame `WatchFrameReader` accepts unless told otherwise. */
export const DEFAULT_MAX_FRAME_BYTES = 64 * 1024 * 1024;

function writeEvent(w: ProtoWriter, event: ProtobufWatchEvent): void {
  w.uvarint(TAG_TYPE);
  w.string(event.type);
  w.uvarint(TAG_OBJECT);
  const mark = w.fork();
  w.uvarint(TAG_RAW);
  w.bytes(event.object);
  w.join(mark);
}

/** The WatchEvent message of one event (unframed). Pre-encoded objects can be shared across watchers. */
export function encodeWatchEvent(event: ProtobufWatchEvent): Uint8Array {
  const w = new ProtoWriter(event.object.length + 32);
  writeEvent(w, event);
  return w.finish();
}

/** One frame of a protobuf watch stream: the 4-byte big-endian length, then the WatchEvent message. */
export function encodeWatchFrame(event: ProtobufWatchEvent): Uint8Array {
  const w = new ProtoWriter(event.object.length + 36);
  w.raw(new Uint8Array(FRAME_HEADER));
  writeEvent(w, event);
  const frame = w.finish();
  new DataView(frame.buffer, frame.byteOffset, FRAME_HEADER).setUint32(0, frame.length - FRAME_HEADER);
  return frame;
}

/**
 * Decodes a WatchEvent message (one frame's payload). `object` is a view into `message`.
 * Throws `ProtobufDecodeError` for malformed input.
 */
export function decodeWatchEvent(message: Uint8Array): ProtobufWatchEvent {
  const r = new ProtoReader(message);
  const end = r.length;
  let type = '';
  let object: Uint8Array = new Uint8Array(0);
  let at = 'type';
  try {
    while (r.pos < end) {
      const tag = r.uint32(end);
      const field = tag >>> 3;
      if ((field === 1 || field === 2) && (tag & 7) !== WIRE_LEN) {
        throw new ProtobufDecodeError('wire-type', `wrong wire type ${tag & 7} for field ${field}`);
      }
      if (tag === TAG_TYPE) {
        at = 'type';
        type = r.string(end);
      } else if (tag === TAG_OBJECT) {
        at = 'object';
        const objectEnd = r.delimited(end);
        while (r.pos < objectEnd) {
          const inner = r.uint32(objectEnd);
          if (inner === TAG_RAW) object = r.bytes(objectEnd);
          else if (inner >>> 3 === 1)
            throw new ProtobufDecodeError('wire-type', `wrong wire type ${inner & 7} for raw`);
          else r.skip(inner & 7, objectEnd, inner >>> 3);
        }
      } else {
        r.skip(tag & 7, end, field);
      }
    }
  } catch (err) {
    if (err instanceof ProtobufDecodeError) err.within(at);
    throw err;
  }
  return { type, object };
}

/**
 * Decodes the object of a watch event: a `Status` when the embedded document is one (ERROR
 * events), otherwise an object of `schema`'s kind (checked against `expected` when given).
 */
export function decodeWatchEventObject(
  schema: Schema,
  event: ProtobufWatchEvent,
  expected?: ExpectedType,
): ApiObject | Status {
  const typeMeta = peekTypeMeta(event.object);
  if (typeMeta.kind === 'Status' && typeMeta.apiVersion === 'v1') return decodeStatus(event.object);
  return decodeObject(schema, event.object, expected);
}

/**
 * Splits a byte stream into length-prefixed frames (4-byte big-endian length), whatever the
 * chunk boundaries. Not safe for concurrent use; one reader per stream.
 */
export class WatchFrameReader {
  private chunks: Uint8Array[] = [];
  private bufferedBytes = 0;
  private readonly maxFrameBytes: number;

  constructor(options: { maxFrameBytes?: number } = {}) {
    this.maxFrameBytes = options.maxFrameBytes ?? DEFAULT_MAX_FRAME_BYTES;
  }

  /** Bytes received but not yet returned as a frame. */
  get buffered(): number {
    return this.bufferedBytes;
  }

  /**
   * Adds a chunk and returns the frames it completes (payloads without the length header).
   * Throws `ProtobufDecodeError` when a frame declares more than `maxFrameBytes`.
   */
  push(chunk: Uint8Array): Uint8Array[] {
    if (chunk.length > 0) {
      this.chunks.push(chunk);
      this.bufferedBytes += chunk.length;
    }
    const frames: Uint8Array[] = [];
    while (this.bufferedBytes >= FRAME_HEADER) {
      const length = this.peekLength();
      if (length > this.maxFrameBytes) {
        throw new ProtobufDecodeError('malformed', `watch frame of ${length} bytes exceeds ${this.maxFrameBytes}`);
      }
      // Chunks are joined only once the whole frame is here, so a large frame is copied once.
      if (this.bufferedBytes < FRAME_HEADER + length) break;
      const data = this.coalesce();
      frames.push(data.subarray(FRAME_HEADER, FRAME_HEADER + length));
      const rest = data.subarray(FRAME_HEADER + length);
      this.chunks = rest.length > 0 ? [rest] : [];
      this.bufferedBytes = rest.length;
    }
    return frames;
  }

  /** Call at the end of the stream: throws `ProtobufDecodeError` if a frame was cut off. */
  finish(): void {
    if (this.bufferedBytes > 0) {
      throw new ProtobufDecodeError(
        'truncated',
        `watch stream ended inside a frame (${this.bufferedBytes} bytes left)`,
      );
    }
  }

  /** The big-endian length header at the start of the buffered bytes (which may span chunks). */
  private peekLength(): number {
    let length = 0;
    let read = 0;
    for (const c of this.chunks) {
      for (let i = 0; i < c.length && read < FRAME_HEADER; i++, read++) length = length * 256 + c[i];
      if (read === FRAME_HEADER) break;
    }
    return length;
  }

  /** Joins the buffered chunks into one view. */
  private coalesce(): Uint8Array {
    if (this.chunks.length === 1) return this.chunks[0];
    const joined = new Uint8Array(this.bufferedBytes);
    let offset = 0;
    for (const c of this.chunks) {
      joined.set(c, offset);
      offset += c.length;
    }
    this.chunks = [joined];
    return joined;
  }
}

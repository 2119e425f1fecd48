import { ProtobufDecodeError } from './errors.js';
import { ProtoReader } from './wire-reader.js';
import type { ProtoWriter } from './wire-writer.js';

/**
 * The protobuf envelope: the 4-byte prefix `k8s\0` followed by apimachinery's `runtime.Unknown`
 * message `{TypeMeta typeMeta = 1 (apiVersion = 1, kind = 2); bytes raw = 2; string
 * contentEncoding = 3; string contentType = 4}`, whose `raw` is the object's own message.
 */

const PREFIX = [0x6b, 0x38, 0x73, 0x00] as const;
const TAG_TYPE_META = 0x0a;
const TAG_RAW = 0x12;
const TAG_CONTENT_ENCODING = 0x1a;
const TAG_CONTENT_TYPE = 0x22;
const TAG_API_VERSION = 0x0a;
const TAG_KIND = 0x12;

export interface TypeMeta {
  readonly apiVersion: string;
  readonly kind: string;
}

/** The envelope of a protobuf document, with the position of its `raw` message in the input. */
export interface Envelope extends TypeMeta {
  readonly contentEncoding: string;
  readonly contentType: string;
  /** A reader over the whole input. */
  readonly reader: ProtoReader;
  /** Start and end offsets of `raw` in the input. */
  readonly rawStart: number;
  readonly rawEnd: number;
}

/** True when `bytes` starts with the protobuf prefix `k8s\0`. */
export function hasProtobufPrefix(bytes: Uint8Array): boolean {
  return (
    bytes.length >= 4 && bytes[0] === PREFIX[0] && bytes[1] === PREFIX[1] && bytes[2] === PREFIX[2] && bytes[3] === 0
  );
}

/** Writes the prefix and the envelope's type meta, and opens `raw`; returns the mark for `endEnvelope`. */
export function beginEnvelope(w: ProtoWriter, typeMeta: TypeMeta): number {
  w.raw(Uint8Array.from(PREFIX));
  w.uvarint(TAG_TYPE_META);
  const typeMark = w.fork();
  w.uvarint(TAG_API_VERSION);
  w.string(typeMeta.apiVersion);
  w.uvarint(TAG_KIND);
  w.string(typeMeta.kind);
  w.join(typeMark);
  w.uvarint(TAG_RAW);
  return w.fork();
}

/** Closes `raw` and writes the (empty) contentEncoding and contentType, as Go always does. */
export function endEnvelope(w: ProtoWriter, rawMark: number): void {
  w.join(rawMark);
  w.uvarint(TAG_CONTENT_ENCODING);
  w.uvarint(0);
  w.uvarint(TAG_CONTENT_TYPE);
  w.uvarint(0);
}

function readTypeMeta(r: ProtoReader, end: number): { apiVersion: string; kind: string } {
  let apiVersion = '';
  let kind = '';
  while (r.pos < end) {
    const tag = r.uint32(end);
    if (tag === TAG_API_VERSION) apiVersion = r.string(end);
    else if (tag === TAG_KIND) kind = r.string(end);
    else r.skip(tag & 7, end, tag >>> 3);
  }
  return { apiVersion, kind };
}

function wrongWireType(tag: number, name: string): ProtobufDecodeError {
  return new ProtobufDecodeError('wire-type', `wrong wire type ${tag & 7} for Unknown.${name}`);
}

/**
 * Reads the prefix and the envelope. Throws `ProtobufDecodeError` with reason `prefix` for empty
 * input or a wrong prefix (kube's messages), and for malformed envelopes.
 */
export function readEnvelope(bytes: Uint8Array): Envelope {
  if (bytes.length === 0) throw new ProtobufDecodeError('prefix', 'empty data');
  if (!hasProtobufPrefix(bytes)) {
    throw new ProtobufDecodeError(
      'prefix',
      'provided data does not appear to be a protobuf message, expected prefix [107 56 115 0]',
    );
  }
  if (bytes.length === PREFIX.length) throw new ProtobufDecodeError('prefix', 'empty body');
  const r = new ProtoReader(bytes, PREFIX.length);
  const end = r.length;
  let apiVersion = '';
  let kind = '';
  let contentEncoding = '';
  let contentType = '';
  let rawStart = 0;
  let rawEnd = 0;
  let at = '';
  try {
    while (r.pos < end) {
      const tag = r.uint32(end);
      const field = tag >>> 3;
      if (field >= 1 && field <= 4 && (tag & 7) !== 2) {
        throw wrongWireType(tag, ['', 'typeMeta', 'raw', 'contentEncoding', 'contentType'][field]);
      }
      if (tag === TAG_TYPE_META) {
        at = 'typeMeta';
        const typeEnd = r.delimited(end);
        const typeMeta = readTypeMeta(r, typeEnd);
        apiVersion = typeMeta.apiVersion;
        kind = typeMeta.kind;
      } else if (tag === TAG_RAW) {
        at = 'raw';
        rawEnd = r.delimited(end);
        rawStart = r.pos;
        r.pos = rawEnd;
      } else if (tag === TAG_CONTENT_ENCODING) {
        at = 'contentEncoding';
        contentEncoding = r.string(end);
      } else if (tag === TAG_CONTENT_TYPE) {
        at = 'contentType';
        contentType = r.string(end);
      } else {
        at = '';
        r.skip(tag & 7, end, field);
      }
    }
  } catch (err) {
    if (err instanceof ProtobufDecodeError) {
      err.within(at ? `<envelope>.${at}` : '<envelope>');
    }
    throw err;
  }
  // Spelled out: an object spread here costs microseconds in V8.
  return { apiVersion, kind, contentEncoding, contentType, reader: r, rawStart, rawEnd };
}

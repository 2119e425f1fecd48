import type { ApiObject } from '../../apis/object.js';
import {
  CBOR_SEQUENCE_MEDIA_TYPE,
  CborSequenceReader,
  JSON_MEDIA_TYPE,
  mediaTypeEssence,
} from '../../encoding/index.js';
import { decodeWatchEvent, WatchFrameReader } from '../../encoding/protobuf/index.js';
import type { ClientWatchEvent, ClientWatchEventType } from '../api/api-client.js';
import { decodeWatchLine, WatchDecodeError } from '../api/json-watch.js';
import type { WireCodecs } from './wire-codecs.js';

/**
 * Decoders of watch streams, one per response: bytes in, watch events out, whatever the chunk
 * boundaries. JSON: one event per line; Protobuf: 4-byte big-endian length-prefixed
 * `WatchEvent` messages whose object is an enveloped document; CBOR: an RFC 8742 sequence of
 * `{type, object}` maps (`application/cbor-seq`).
 */
export interface WatchEventDecoder {
  /** The events `chunk` completes. Throws {@link WatchDecodeError} for undecodable data. */
  push(chunk: Uint8Array): ClientWatchEvent[];
  /**
   * Call when the stream ended: the events of what is left (a JSON line without its newline);
   * throws {@link WatchDecodeError} when the stream ended inside an event.
   */
  finish(): ClientWatchEvent[];
}

/**
 * CBOR response limits: kube's nesting limit, but no cap on array and map sizes (kube's
 * decoder allows 1024, which a list of more objects exceeds; request bodies keep it).
 */
export const CBOR_RESPONSE_LIMITS = {
  maxNestedLevels: 64,
  maxArrayElements: Number.MAX_SAFE_INTEGER,
  maxMapPairs: Number.MAX_SAFE_INTEGER,
} as const;

const TYPES: ReadonlySet<string> = new Set(['ADDED', 'MODIFIED', 'DELETED', 'BOOKMARK', 'ERROR']);

function eventOf(type: unknown, object: unknown, format: string): ClientWatchEvent {
  if (typeof type !== 'string' || !TYPES.has(type) || !object || typeof object !== 'object') {
    throw new WatchDecodeError(`watch stream: a ${format} frame is not a watch event`);
  }
  return { type: type as ClientWatchEventType, object: object as ApiObject };
}

function wrapped<T>(format: string, decode: () => T): T {
  try {
    return decode();
  } catch (e) {
    if (e instanceof WatchDecodeError) throw e;
    throw new WatchDecodeError(`watch stream: invalid ${format}: ${(e as Error).message}`, { cause: e });
  }
}

class JsonLines implements WatchEventDecoder {
  private pending: Buffer = Buffer.alloc(0);

  push(chunk: Uint8Array): ClientWatchEvent[] {
    // Split on the newline byte: it never occurs inside a UTF-8 multi-byte character.
    let buf = this.pending.length === 0 ? Buffer.from(chunk) : Buffer.concat([this.pending, chunk]);
    const events: ClientWatchEvent[] = [];
    let nl = buf.indexOf(0x0a);
    while (nl >= 0) {
      const line = buf.subarray(0, nl).toString('utf8').trim();
      buf = buf.subarray(nl + 1);
      if (line) events.push(decodeWatchLine(line));
      nl = buf.indexOf(0x0a);
    }
    this.pending = buf;
    return events;
  }

  finish(): ClientWatchEvent[] {
    const rest = this.pending.toString('utf8').trim();
    this.pending = Buffer.alloc(0);
    return rest ? [decodeWatchLine(rest)] : [];
  }
}

class ProtobufFrames implements WatchEventDecoder {
  private readonly frames = new WatchFrameReader();
  constructor(private readonly codecs: WireCodecs) {}

  push(chunk: Uint8Array): ClientWatchEvent[] {
    return wrapped('Protobuf', () =>
      this.frames.push(chunk).map((frame) => {
        const ev = decodeWatchEvent(frame);
        return eventOf(ev.type, this.codecs.decodeProtobuf(ev.object), 'Protobuf');
      }),
    );
  }

  finish(): ClientWatchEvent[] {
    wrapped('Protobuf', () => this.frames.finish());
    return [];
  }
}

class CborSequence implements WatchEventDecoder {
  private readonly items = new CborSequenceReader(CBOR_RESPONSE_LIMITS);

  push(chunk: Uint8Array): ClientWatchEvent[] {
    return wrapped('CBOR', () =>
      this.items.push(chunk).map((item) => {
        const ev = item as { type?: unknown; object?: unknown } | null;
        return eventOf(ev?.type, ev?.object, 'CBOR');
      }),
    );
  }

  finish(): ClientWatchEvent[] {
    wrapped('CBOR', () => this.items.finish());
    return [];
  }
}

/**
 * The decoder of a watch response with `contentType` (JSON when absent). Throws
 * {@link WatchDecodeError} for a content type that is no watch stream the client reads.
 */
export function watchDecoderFor(contentType: string | undefined, codecs: WireCodecs): WatchEventDecoder {
  const essence = contentType ? mediaTypeEssence(contentType) : JSON_MEDIA_TYPE;
  if (essence === JSON_MEDIA_TYPE) return new JsonLines();
  if (codecs.isProtobuf(essence)) return new ProtobufFrames(codecs);
  if (essence === CBOR_SEQUENCE_MEDIA_TYPE) return new CborSequence();
  throw new WatchDecodeError(`watch stream: the content type ${contentType} is not one the client can read`);
}
